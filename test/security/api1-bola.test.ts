import { beforeAll, describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { addMember, createUser, enrolDevice, fakePublicKey } from "../helpers/factories";
import { changedTables, snapshot } from "../fuzz/snapshot";
import { buildTenants, fill, type Tenants } from "./tenants";
import { expectError } from "../helpers/expect-error";

/**
 * OWASP API1:2023 Broken Object Level Authorization. Bob is signed in and valid but has no membership
 * in Alice's group: every object of Alice's answers 404 (no existence leak) and nothing changes.
 * Groups, networks, nodes and policies are covered in test/api/cross-tenant*.test.ts; these are the
 * remaining kinds, plus id swaps across parents (Bob's network in the path, Alice's key id after it).
 */
const CASES: [string, string, unknown?][] = [
  ["GET", "/dns/records/:record"],
  ["PUT", "/dns/records/:record", { name: "x", type: "A", value: "10.61.0.9" }],
  ["DELETE", "/dns/records/:record"],
  ["GET", "/networks/:network/dns/records"],
  ["POST", "/networks/:network/dns/records", { name: "x", type: "A", value: "10.61.0.9" }],
  ["GET", "/networks/:network/dns/zonefile"],
  ["GET", "/networks/:network/dns/corefile"],
  ["GET", "/networks/:network/enrolment-keys"],
  ["POST", "/networks/:network/enrolment-keys", { name: "stolen" }],
  ["DELETE", "/networks/:network/enrolment-keys/:key"],
  ["DELETE", "/networks/:b.network/enrolment-keys/:key"],
  ["GET", "/devices/:device"],
  ["PATCH", "/devices/:device", { name: "stolen" }],
  ["DELETE", "/devices/:device"],
  ["GET", "/devices/:device/routing-preferences"],
  ["PUT", "/devices/:device/routing-preferences", { mode: "none" }],
  ["POST", "/client/devices/:device/config"],
  ["POST", "/client/devices/:device/heartbeat", { appliedRevision: 0 }],
  ["POST", "/client/devices", { networkId: ":network", name: "intruder", publicKey: "KEY" }],
  ["GET", "/groups/:group/invites"],
  ["POST", "/groups/:group/invites", { email: "x@example.com", role: "owner" }],
  ["DELETE", "/groups/:group/invites/:invite"],
  ["DELETE", "/groups/:b.group/invites/:invite"],
  ["GET", "/notifications/channels/:channel"],
  ["PATCH", "/notifications/channels/:channel", { enabled: false }],
  ["DELETE", "/notifications/channels/:channel"],
  ["POST", "/notifications/channels/:channel/rotate-secret"],
  ["POST", "/notifications/channels/:channel/test"],
  ["GET", "/notifications/deliveries/:delivery"],
  ["POST", "/notifications/deliveries/:delivery/retry"],
  ["GET", "/users/:user"],
  ["PATCH", "/users/:user", { name: "stolen" }],
  ["DELETE", "/users/:user"],
  ["GET", "/users/:user/groups"],
  ["GET", "/users/:user/access"],
  ["GET", "/audit?networkId=:network"],
  ["GET", "/audit?groupId=:group"],
];

let t: Tenants;
beforeAll(async () => {
  t = await buildTenants();
}, 60_000);

describe("API1 BOLA: another tenant's objects", () => {
  it.each(CASES)("%s %s as another tenant is 404 and changes nothing", async (method, template, body) => {
    const before = await snapshot();
    const filled = body === undefined ? undefined : JSON.parse(fill(JSON.stringify(body), t).replace("KEY", fakePublicKey()));
    const response = await call(method, fill(template, t), { token: t.bob.token, body: filled });
    expect(response.status, response.text).toBe(404);
    expect(response.body.error.code).toBe("not_found");
    expect(changedTables(before, await snapshot())).toEqual([]);
  });

  it("a device credential reaches only its own device", async () => {
    for (const path of [`/client/devices/${t.a.device}/config`, `/client/devices/${t.a.device}/heartbeat`]) {
      const body = path.endsWith("/config") ? { sinceRevision: 0 } : { appliedRevision: 0 };
      const response = await call("POST", path, { token: t.secrets.bobDeviceToken, body });
      expectError(response, 404, "not_found");
    }
    expect((await call("POST", `/client/devices/${t.b.device}/config`, { token: t.secrets.bobDeviceToken })).status).toBe(200);
  });

  it("an enrolment key cannot enrol into another network than its own", async () => {
    const response = await call("POST", "/client/devices", {
      body: { networkId: t.b.network, name: "swap", publicKey: fakePublicKey(), enrolmentKey: t.secrets.aliceKey },
    });
    expectError(response, 400, "validation_error");
    expect((await get(`/networks/${t.a.network}/enrolment-keys`, t.alice.token)).body.items[0].usedCount).toBe(0);
  });

  it("lists never show another tenant's objects, whatever the filter", async () => {
    const paths = [
      "/networks",
      "/groups",
      "/devices",
      `/devices?networkId=${t.a.network}`,
      "/tunnels",
      `/tunnels?networkId=${t.a.network}`,
      `/nodes?networkId=${t.a.network}`,
      "/notifications/channels",
      "/notifications/deliveries",
      "/audit",
      "/notifications/settings",
    ];
    const aliceIds = Object.entries(t.a)
      .filter(([kind]) => kind !== "user")
      .map(([, id]) => id);
    for (const path of paths) {
      const response = await get(path, t.bob.token);
      expect(response.status, path).toBe(200);
      for (const id of aliceIds) expect(response.text, `${path} shows ${id}`).not.toContain(id);
    }
  });

  it("within a group a device is personal: a member does not see another member's device", async () => {
    const carol = await createUser(t.admin);
    await addMember(t.a.group!, carol, "member");
    const carols = await enrolDevice(carol, { networkId: t.a.network, publicKey: fakePublicKey() });
    expectError(await get(`/devices/${t.a.device}`, carol.token), 404, "not_found");
    expect((await get(`/devices/${carols.deviceId}`, carol.token)).status).toBe(200);
    const listed = await get("/devices", carol.token);
    expect(listed.body.items.map((d: { id: string }) => d.id)).toEqual([carols.deviceId]);
  });
});
