import { beforeAll, describe, expect, it } from "vitest";
import { patch, post, put } from "../helpers/api";
import { createGroup, createNetwork, nextCidr, signInAdmin, type Session } from "../helpers/factories";
import { changedTables, settle, snapshot } from "../fuzz/snapshot";

/**
 * Issue 12, item 8: a network's CIDR is the space its nodes get interface addresses from, so it must
 * be unicast space. Loopback, link-local, multicast, broadcast/reserved, unspecified and default-route
 * ranges, and any CIDR overlapping one of them, are refused with a 422 that names the range.
 */
const REFUSED: [string, RegExp][] = [
  ["0.0.0.0/0", /0\.0\.0\.0\/8/],
  ["0.0.0.0/8", /"this network"/],
  ["127.0.0.0/8", /loopback/],
  ["127.0.0.0/30", /loopback/],
  ["169.254.0.0/16", /link-local/],
  ["169.254.169.0/24", /link-local/],
  ["160.0.0.0/4", /169\.254\.0\.0\/16, link-local/],
  ["224.0.0.0/4", /multicast/],
  ["239.1.0.0/16", /multicast/],
  ["240.0.0.0/4", /reserved/],
  ["255.255.255.255/32", /broadcast/],
  ["128.0.0.0/1", /link-local/],
  ["::/0", /::\/96/],
  ["::/128", /unspecified/],
  ["::1/128", /loopback/],
  ["::ffff:0:0/96", /IPv4-mapped/],
  ["fe80::/64", /link-local/],
  ["fe80::/10", /link-local/],
  ["ff00::/8", /multicast/],
  ["ff02::/16", /multicast/],
  ["8000::/1", /link-local|multicast/],
];
const ALLOWED = [
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "100.64.0.0/10",
  "fd00::/8",
  "fc00::/7",
  "2001:db8:100::/48",
  "203.0.113.0/24",
];

let admin: Session;
beforeAll(async () => {
  admin = await signInAdmin();
});

function expectRefused(response: { status: number; text: string; body: any }, kind: RegExp) {
  expect(response.status, response.text).toBe(422);
  expect(response.body.error.code).toBe("VALIDATION_ERROR");
  const field = response.body.error.fields.find((f: { path: string }) => f.path === "cidr");
  expect(field?.message, response.text).toMatch(kind);
  expect(field.message).toMatch(/unicast space/);
}

describe("item 8: network CIDRs are unicast space an overlay can use", () => {
  it.each(REFUSED)("%s is refused on create, PATCH and PUT (422 naming the range) and changes nothing", async (cidr, kind) => {
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id, nextCidr());
    await settle();
    const before = await snapshot();
    expectRefused(await post("/networks", { groupId: group.id, name: `n-${cidr}`, cidr }, admin.token), kind);
    expectRefused(await patch(`/networks/${network.id}`, { cidr }, admin.token), kind);
    expectRefused(await put(`/networks/${network.id}`, { name: network.name, cidr, dnsDomain: "x.internal" }, admin.token), kind);
    await settle();
    expect(changedTables(before, await snapshot())).toEqual([]);
  });

  it("RFC 1918, CGNAT 100.64/10, ULA and global unicast space stay allowed; a routing policy may still send 0.0.0.0/0 through a gateway", async () => {
    for (const cidr of ALLOWED) {
      const group = await createGroup(admin);
      const created = await post("/networks", { groupId: group.id, name: "ok", cidr }, admin.token);
      expect(created.status, `${cidr}: ${created.text}`).toBe(201);
    }
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id, nextCidr());
    const policy = await post(
      `/networks/${network.id}/routing-policies`,
      { name: "exit", type: "via_gateway", destinationCidr: "0.0.0.0/0", gatewayPath: ["node_none"] },
      admin.token,
    );
    // The destination passes the schema; only the unknown hop is refused (a domain rule, 400).
    expect(policy.status, policy.text).toBe(400);
    expect(policy.body.error.code).toBe("validation_error");
  });
});
