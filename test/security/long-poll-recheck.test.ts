// Issue 24, item 3: a request that waits before it answers (a long poll) checks its credential again when
// it wakes. The authentication middleware checked it when the request began; an agent revoked (or its
// credential rotated) or a user signed out while the poll waited must get 401, not configs and a zone that
// include changes made after the revocation.
import { describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { createGateway, createNode, enrolDevice, networkSetup, unique, type Session } from "../helpers/factories";

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A network with one gateway node and the daemon agent of its gateway, holding the current desired state. */
async function daemonHoldingState() {
  const { admin, network } = await networkSetup();
  const gateway = await createGateway(admin);
  const node = await createNode(admin, network.id, { gatewayId: gateway.id, endpoint: "198.51.100.20:51820" });
  const issued = await post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId: gateway.id }, admin.token);
  const enrolled = await post("/agents/enrol", { token: issued.body.token, name: unique("agent"), version: "1.0.0" });
  expect(enrolled.status, enrolled.text).toBe(201);
  const credential = enrolled.body.credential as string;
  const first = await get("/agents/me/desired-state", credential);
  expect(first.status, first.text).toBe(200);
  const poll = (seconds: number) =>
    call("GET", `/agents/me/desired-state?wait=${seconds}`, {
      token: credential,
      headers: { "If-None-Match": first.headers.get("etag")! },
    });
  return { admin, network, node, agentId: enrolled.body.agent.id as string, credential, poll };
}

const addRecord = async (admin: Session, networkId: string, name: string) => {
  const created = await post(`/networks/${networkId}/dns/records`, { name, type: "A", value: "10.250.0.9" }, admin.token);
  expect(created.status, created.text).toBe(201);
};

describe("issue 24 item 3: a long poll re-checks its credential when it wakes", () => {
  it("a gateway agent revoked while its long poll waits gets 401, without the record added after the revocation", async () => {
    const { admin, network, agentId, poll } = await daemonHoldingState();
    const waiting = poll(20);
    await settle(500);
    expect((await post(`/agents/${agentId}/revoke`, {}, admin.token)).status).toBe(200);
    const secret = unique("after-revoke");
    await addRecord(admin, network.id, secret);
    const answer = await waiting;
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body.error.code).toBe("unauthorized");
    expect(answer.text).not.toContain(secret);
  });

  it("a credential rotated while the poll waits ends the poll made with the old one (401); the new one is answered", async () => {
    const { admin, network, credential, poll } = await daemonHoldingState();
    const waiting = poll(20);
    await settle(500);
    const rotated = await post("/agents/me/credential", {}, credential);
    expect(rotated.status, rotated.text).toBe(200);
    await addRecord(admin, network.id, unique("after-rotate"));
    expect((await waiting).status).toBe(401);
    expect((await get("/agents/me/desired-state", rotated.body.credential)).status).toBe(200);
  });

  it("a poll that runs out after its agent was revoked answers 401, not 304", async () => {
    const { admin, agentId, poll } = await daemonHoldingState();
    const waiting = poll(2);
    await settle(300);
    expect((await post(`/agents/${agentId}/revoke`, {}, admin.token)).status).toBe(200);
    expect((await waiting).status).toBe(401);
  });

  it("a device's long poll made with its owner's token answers 401 once that session signed out while it waited", async () => {
    const { owner, network, admin } = await networkSetup({ owner: "user" });
    const device = await enrolDevice(owner, { networkId: network.id });
    const held = await call("POST", `/client/devices/${device.deviceId}/config`, { token: owner.token, body: {} });
    expect(held.status, held.text).toBe(200);
    const waiting = call("POST", `/client/devices/${device.deviceId}/config?wait=20`, {
      token: owner.token,
      body: { sinceRevision: held.body.config.routingRevision },
    });
    await settle(500);
    expect((await call("POST", "/auth/logout", { token: owner.token })).status).toBe(204);
    const joined = await createNode(admin, network.id);
    const answer = await waiting;
    expect(answer.status, answer.text).toBe(401);
    expect(answer.text).not.toContain(joined.id);
  });
});
