import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { get, patch, post, put } from "../helpers/api";
import {
  addMember,
  createGroup,
  createNetwork,
  createNode,
  createUser,
  enrolDevice,
  fakePublicKey,
  nextCidr,
  signInAdmin,
  type Session,
} from "../helpers/factories";
import { changedTables, settle, snapshot } from "../fuzz/snapshot";
import { networkWriter } from "../../src/objects/network/client";

/**
 * Issue 12, items 6 and 7: the names a network's zone holds. Nodes and devices become
 * `<name>.<dnsDomain>`, records `<name>.<dnsDomain>`; the zone itself uses `ns` (its NS host) and
 * `hostmaster` (its SOA contact). No node, device or record may take those, and no path may make a
 * full name longer than 253 characters, since either breaks the zone for everyone in the network.
 */
let admin: Session;
let member: Session;
beforeAll(async () => {
  admin = await signInAdmin();
  member = await createUser(admin);
});

async function networkOf(dnsDomain?: string) {
  const group = await createGroup(admin);
  await addMember(group.id, member, "member");
  const network = await createNetwork(admin, group.id, nextCidr());
  if (dnsDomain) {
    const changed = await patch(`/networks/${network.id}`, { dnsDomain }, admin.token);
    expect(changed.status, changed.text).toBe(200);
  }
  return network;
}

function expect422(response: { status: number; text: string; body: any }, field: string, mentions: RegExp) {
  expect(response.status, response.text).toBe(422);
  expect(response.body.error.code).toBe("VALIDATION_ERROR");
  const entry = response.body.error.fields.find((f: { path: string }) => f.path === field);
  expect(entry, response.text).toBeDefined();
  expect(entry.message).toMatch(mentions);
}

const zoneOf = async (networkId: string) => (await get(`/networks/${networkId}/dns/zonefile`, admin.token)).text;
/** The zone's data lines as [owner, type, rdata]. */
const zoneLines = (zone: string) =>
  zone
    .split("\n")
    .filter((line) => line && !line.startsWith("$"))
    .map((line) => line.split("\t"))
    .map((cells) => [cells[0]!, cells[3]!, cells[4]!] as const);

describe("item 6: the zone's own names are reserved", () => {
  it("a member cannot enrol or rename a device to ns, hostmaster, @ or *; nothing changes and the zone keeps its name server", async () => {
    const network = await networkOf();
    const device = await enrolDevice(member, { networkId: network.id });
    const zoneBefore = await zoneOf(network.id);
    await settle();
    const before = await snapshot();
    for (const name of ["ns", "NS", "hostmaster", "Hostmaster"]) {
      const enrol = await post("/client/devices", { networkId: network.id, name, publicKey: fakePublicKey() }, member.token);
      expect422(enrol, "name", new RegExp(`"${name.toLowerCase()}" is reserved`));
      expect422(
        await patch(`/devices/${device.deviceId}`, { name }, member.token),
        "name",
        new RegExp(`"${name.toLowerCase()}" is reserved`),
      );
    }
    for (const name of ["@", "*", "*.x"]) {
      expect((await post("/client/devices", { networkId: network.id, name, publicKey: fakePublicKey() }, member.token)).status).toBe(422);
    }
    await settle();
    expect(changedTables(before, await snapshot())).toEqual([]);
    expect(await zoneOf(network.id)).toBe(zoneBefore);
  });

  it("a group admin cannot create or rename a node to them, nor put any record there (A, AAAA, TXT, CNAME)", async () => {
    const network = await networkOf();
    const node = await createNode(admin, network.id, { name: "plain" });
    await settle();
    const before = await snapshot();
    for (const name of ["ns", "hostmaster"]) {
      expect422(
        await post("/nodes", { networkId: network.id, name, publicKey: fakePublicKey() }, admin.token),
        "name",
        new RegExp(`"${name}" is reserved`),
      );
      expect422(await patch(`/nodes/${node.id}`, { name }, admin.token), "name", new RegExp(`"${name}" is reserved`));
      for (const [type, value] of [
        ["A", "10.1.2.3"],
        ["AAAA", "fd00::9"],
        ["TXT", "hi"],
        ["CNAME", "plain"],
      ]) {
        const record = await post(`/networks/${network.id}/dns/records`, { name: name.toUpperCase(), type, value }, admin.token);
        expect422(record, "name", new RegExp(`"${name}" is reserved`));
      }
    }
    await settle();
    expect(changedTables(before, await snapshot())).toEqual([]);
  });

  it("a node stored under a reserved name before the rule never replaces the name server's address", async () => {
    const network = await networkOf();
    const first = await createNode(admin, network.id, { name: "first" });
    const squatter = await createNode(admin, network.id, { name: "squatter" });
    await env.DB.prepare("UPDATE nodes SET name = 'ns' WHERE id = ?").bind(squatter.id).run();
    const lines = zoneLines(await zoneOf(network.id));
    expect(lines.filter(([owner]) => owner === "ns")).toEqual([["ns", "A", first.address]]);
    expect(lines.some(([, , data]) => data === squatter.address)).toBe(false);
  });
});

// 63 + 1 + 63 + 1 + 63 + 1 + 50 = 242 characters: the longest domain that leaves room for hostmaster.<domain>.
const LONGEST_DOMAIN = ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(50)].join(".");

describe("item 7: no full name under a network's domain is longer than 253 characters", () => {
  it("a domain is at most 242 characters, so the zone's hostmaster.<domain> fits (create, PATCH, PUT)", async () => {
    expect(LONGEST_DOMAIN).toHaveLength(242);
    const group = await createGroup(admin);
    const tooLong = `e.${LONGEST_DOMAIN}`;
    const network = await createNetwork(admin, group.id, nextCidr());
    await settle();
    const before = await snapshot();
    expect422(
      await post("/networks", { groupId: group.id, name: "long", cidr: nextCidr(), dnsDomain: tooLong }, admin.token),
      "dnsDomain",
      /at most 242/,
    );
    expect422(await patch(`/networks/${network.id}`, { dnsDomain: tooLong }, admin.token), "dnsDomain", /at most 242/);
    expect422(
      await put(`/networks/${network.id}`, { name: network.name, cidr: network.cidr, dnsDomain: tooLong }, admin.token),
      "dnsDomain",
      /at most 242/,
    );
    await settle();
    expect(changedTables(before, await snapshot())).toEqual([]);
    expect((await patch(`/networks/${network.id}`, { dnsDomain: LONGEST_DOMAIN }, admin.token)).status).toBe(200);
  });

  it("under the longest domain a 10-character node name fits (253) and an 11-character one does not: node create, rename, enrolment, device rename", async () => {
    const network = await networkOf(LONGEST_DOMAIN);
    const fits = await createNode(admin, network.id, { name: "x".repeat(10) });
    const device = await enrolDevice(member, { networkId: network.id, name: "y".repeat(10) });
    await settle();
    const before = await snapshot();
    const name = "z".repeat(11);
    expect422(
      await post("/nodes", { networkId: network.id, name, publicKey: fakePublicKey() }, admin.token),
      "name",
      /254 characters; DNS names are at most 253/,
    );
    expect422(await patch(`/nodes/${fits.id}`, { name }, admin.token), "name", /at most 253/);
    expect422(
      await post("/client/devices", { networkId: network.id, name, publicKey: fakePublicKey() }, member.token),
      "name",
      /at most 253/,
    );
    expect422(await patch(`/devices/${device.deviceId}`, { name }, member.token), "name", /at most 253/);
    expect422(await post(`/networks/${network.id}/dns/records`, { name, type: "A", value: "10.1.1.1" }, admin.token), "name", /253/);
    await settle();
    expect(changedTables(before, await snapshot())).toEqual([]);
    for (const [owner] of zoneLines(await zoneOf(network.id))) {
      const full = owner === "@" ? LONGEST_DOMAIN : `${owner}.${LONGEST_DOMAIN}`;
      expect(full.length).toBeLessThanOrEqual(253);
    }
  });

  it("a domain change that would lengthen an existing node's, record's or CNAME target's name past 253 is 409 and changes nothing (PATCH and PUT)", async () => {
    const cases: [string, (networkId: string) => Promise<unknown>, RegExp][] = [
      ["node", (id) => createNode(admin, id, { name: "n".repeat(40) }), /^Node node_\w+ \("n{40}"\): The full name/],
      [
        "record",
        (id) => post(`/networks/${id}/dns/records`, { name: `${"r".repeat(30)}.x`, type: "TXT", value: "t" }, admin.token),
        /^DNS record dns_\w+/,
      ],
      [
        "CNAME target",
        (id) => post(`/networks/${id}/dns/records`, { name: "alias", type: "CNAME", value: `${"t".repeat(35)}.svc` }, admin.token),
        /^DNS record dns_\w+ \("alias"\)/,
      ],
    ];
    for (const [label, seed, message] of cases) {
      const network = await networkOf("short.internal");
      await seed(network.id);
      const current = (await get(`/networks/${network.id}`, admin.token)).body;
      await settle();
      const before = await snapshot();
      for (const response of [
        await patch(`/networks/${network.id}`, { dnsDomain: LONGEST_DOMAIN }, admin.token),
        await put(`/networks/${network.id}`, { name: current.name, cidr: current.cidr, dnsDomain: LONGEST_DOMAIN }, admin.token),
      ]) {
        expect(response.status, `${label}: ${response.text}`).toBe(409);
        expect(response.body.error.code).toBe("conflict");
        expect(response.body.error.message).toMatch(message);
        expect(response.body.error.message).toMatch(/pick a shorter domain/);
      }
      await settle();
      expect(changedTables(before, await snapshot()), label).toEqual([]);
      expect((await get(`/networks/${network.id}`, admin.token)).body).toMatchObject({
        dnsDomain: "short.internal",
        dnsRevision: current.dnsRevision,
      });
    }
  });

  it("the writer checks a record against the domain of the moment it writes, not the one its request was validated with", async () => {
    // A domain change can run in the network's writer between a record request's validation and its write.
    const network = await networkOf(`${"p".repeat(60)}.${"p".repeat(60)}.internal`);
    const validatedUnderOldDomain = {
      name: `${"q".repeat(60)}.${"q".repeat(60)}.${"q".repeat(60)}`,
      type: "A" as const,
      value: "10.1.1.2",
      ttl: 300,
    };
    await settle();
    const before = await snapshot();
    const result = await networkWriter(env, network.id).createDnsRecord(network.id, validatedUnderOldDomain);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({
      code: "VALIDATION_ERROR",
      fields: [{ path: "name", message: expect.stringMatching(/longer than 253/) }],
    });
    expect(changedTables(before, await snapshot())).toEqual([]);
  });
});
