import { beforeAll, describe, expect, it } from "vitest";
import { patch, post } from "../helpers/api";
import {
  createGateway,
  createGroup,
  createNetwork,
  createNode,
  enrolDevice,
  fakePublicKey,
  signInAdmin,
  type Session,
} from "../helpers/factories";
import { changedTables, settle, snapshot } from "../fuzz/snapshot";

/**
 * Issue 12, item 9: endpoints are written into every peer's wg-quick text, so only `IPv4:port`,
 * `[IPv6]:port` and `hostname:port` pass, on create, update and heartbeat; gateway public hosts the same.
 */
const BAD_ENDPOINTS = [
  "[aaaa]:51820",
  "[::::]:51820",
  "[1:2:3]:51820",
  `[${"a".repeat(64)}]:51820`,
  "[1.2.3.4]:51820",
  "[fe80::1%eth0]:51820",
  "[::1::2]:51820",
  "[:]:51820",
  "999.1.1.1:51820",
  "1.2.3:51820",
  "1.2.3.4.5:51820",
  "a..b:51820",
  "host-.example:51820",
  `${"x".repeat(64)}.example:51820`,
  "1:2:3:4:5:6:7:8:51820",
];
const GOOD_ENDPOINTS = ["203.0.113.7:51820", "[2001:db8::1]:51820", "[::ffff:198.51.100.1]:1", "gw1.example.net:65535", "localhost:51820"];

let admin: Session;
let networkId: string;
beforeAll(async () => {
  admin = await signInAdmin();
  networkId = (await createNetwork(admin, (await createGroup(admin)).id)).id;
});

function expectRefused(response: { status: number; text: string; body: any }, field: string) {
  expect(response.status, response.text).toBe(422);
  expect(response.body.error.code).toBe("VALIDATION_ERROR");
  expect(response.body.error.fields.map((f: { path: string }) => f.path)).toContain(field);
}

describe("item 9: node endpoints hold a real address or host name", () => {
  it.each(BAD_ENDPOINTS)("%s is refused on node create, node update and device heartbeat, and changes nothing", async (endpoint) => {
    const node = await createNode(admin, networkId);
    const device = await enrolDevice(admin, { networkId });
    await settle();
    const before = await snapshot();
    expectRefused(
      await post("/nodes", { networkId, name: `e${Date.now().toString(36)}`, publicKey: fakePublicKey(), endpoint }, admin.token),
      "endpoint",
    );
    expectRefused(await patch(`/nodes/${node.id}`, { endpoint }, admin.token), "endpoint");
    expectRefused(
      await post(`/client/devices/${device.deviceId}/heartbeat`, { appliedRevision: null, endpoint }, device.deviceToken),
      "endpoint",
    );
    await settle();
    expect(changedTables(before, await snapshot())).toEqual([]);
  });

  it("IPv4, bracketed IPv6 and host names with any port 1-65535 stay accepted", async () => {
    const node = await createNode(admin, networkId);
    for (const endpoint of GOOD_ENDPOINTS) {
      const response = await patch(`/nodes/${node.id}`, { endpoint }, admin.token);
      expect(response.status, `${endpoint}: ${response.text}`).toBe(200);
      expect(response.body.endpoint).toBe(endpoint);
    }
  });

  it("a gateway's public host is an address or a host name (admin create and update, manager registration)", async () => {
    const gateway = await createGateway(admin);
    const region = gateway.regionId;
    await settle();
    const before = await snapshot();
    for (const publicHost of ["::::", "1:2:3", "999.1.1.1", "a..b", "-x.example"]) {
      expectRefused(await post("/gateways", { regionId: region, name: "g", publicHost }, admin.token), "publicHost");
      expectRefused(await patch(`/gateways/${gateway.id}`, { publicHost }, admin.token), "publicHost");
    }
    await settle();
    expect(changedTables(before, await snapshot())).toEqual([]);
    for (const publicHost of ["2001:db8::7", "198.51.100.7", "gw.example.net"]) {
      expect((await patch(`/gateways/${gateway.id}`, { publicHost }, admin.token)).status).toBe(200);
    }
  });
});
