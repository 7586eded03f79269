import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../client/index.ts";
import { api, byId, call, get, post } from "../helpers/api";
import {
  createGateway,
  createNode,
  createUser,
  enrolDevice,
  expectStatus,
  gatewayNetwork,
  signInAdmin,
  unique,
  type Session,
} from "../helpers/factories";
import { expectError, expectRefused } from "../helpers/expect-error";
import { rowsOf } from "../helpers/state";

/** Agent rows a refused enrolment or token issue must leave as they were. */
const agentRows = rowsOf("agents", "agent_enrolment_tokens");

async function enrolAgent(admin: Session, body: Schema<"CreateAgentEnrolmentToken">) {
  const issued = expectStatus(await api(admin.token).POST("/api/v1/agents/enrolment-tokens", { body }), 201);
  const enrolled = expectStatus(
    await api().POST("/api/v1/agents/enrol", { body: { token: issued.token, name: unique("agent"), version: "1.0.0" } }),
    201,
  );
  return { token: issued.token, agent: enrolled.agent, credential: enrolled.credential };
}

describe("agents", () => {
  it("enrol once with a single-use token; the credential authenticates, rotates and can be revoked", async () => {
    const admin = await signInAdmin();
    const gateway = await createGateway(admin);
    const { token, agent, credential } = await enrolAgent(admin, { kind: "gateway-daemon", gatewayId: gateway.id });
    expect(agent).toMatchObject({ kind: "gateway-daemon", gatewayId: gateway.id, status: "active", online: true });
    expect(credential).toMatch(/^agc_/);
    await expectRefused(agentRows, () => api().POST("/api/v1/agents/enrol", { body: { token, name: "again" } }), 401, "unauthorized");
    expect(expectStatus(await api(credential).GET("/api/v1/agents/me"), 200).id).toBe(agent.id);
    const rotated = expectStatus(await api(credential).POST("/api/v1/agents/me/credential"), 200);
    expectError(await api(credential).GET("/api/v1/agents/me"), 401, "unauthorized");
    expectStatus(await api(rotated.credential).GET("/api/v1/agents/me"), 200);
    expect(expectStatus(await api(admin.token).POST("/api/v1/agents/{id}/revoke", byId(agent.id)), 200).status).toBe("revoked");
    expectError(await api(rotated.credential).GET("/api/v1/agents/me"), 401, "unauthorized");
  });

  it("expired tokens are refused; tokens need the right scope; only platform admins issue them", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const gateway = await createGateway(admin);
    const issue = (token: string, body: Schema<"CreateAgentEnrolmentToken">) =>
      api(token).POST("/api/v1/agents/enrolment-tokens", { body });
    await expectRefused(agentRows, () => issue(user.token, { kind: "gateway-daemon", gatewayId: gateway.id }), 403, "forbidden");
    await expectRefused(agentRows, () => issue(admin.token, { kind: "gateway-manager", gatewayId: gateway.id }), 422, "VALIDATION_ERROR");
    await expectRefused(agentRows, () => issue(admin.token, { kind: "gateway-manager", regionId: "reg_nope" }), 400, "validation_error");
    const issued = expectStatus(await issue(admin.token, { kind: "gateway-daemon", gatewayId: gateway.id }), 201);
    await env.DB.prepare("update agent_enrolment_tokens set expires_at = '2000-01-01T00:00:00.000Z' where id = ?").bind(issued.id).run();
    await expectRefused(
      agentRows,
      () => api().POST("/api/v1/agents/enrol", { body: { token: issued.token, name: "late" } }),
      401,
      "unauthorized",
    );
  });

  it("credentials do not cross: agents cannot use user or device routes, nor the other kind's routes", async () => {
    const admin = await signInAdmin();
    const gateway = await createGateway(admin);
    const daemon = await enrolAgent(admin, { kind: "gateway-daemon", gatewayId: gateway.id });
    const manager = await enrolAgent(admin, { kind: "gateway-manager", regionId: gateway.regionId });
    expectError(await get("/networks", daemon.credential), 401, "unauthorized");
    expectError(await get("/agents/me/gateways", daemon.credential), 403, "forbidden");
    expectError(await get("/agents/me/desired-state", manager.credential), 403, "forbidden");
    expectError(await get("/agents/me", admin.token), 401, "unauthorized");
  });

  it("the inventory lists agents read-only for every signed-in user, with filters", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const gateway = await createGateway(admin);
    const { agent } = await enrolAgent(admin, { kind: "gateway-manager", regionId: gateway.regionId });
    const listed = await get("/agents?kind=gateway-manager&status=active&limit=200", user.token);
    expect(listed.body.items.map((a: { id: string }) => a.id)).toContain(agent.id);
    expect(listed.body.items.every((a: { kind: string }) => a.kind === "gateway-manager")).toBe(true);
    expect((await get(`/agents/${agent.id}`, user.token)).body).not.toHaveProperty("credentialHash");
    expectError(await post(`/agents/${agent.id}/revoke`, {}, user.token), 403, "forbidden");
  });
});

describe("gateway-manager", () => {
  it("registers and updates the gateways of its own region only", async () => {
    const admin = await signInAdmin();
    const own = await createGateway(admin);
    const foreign = await createGateway(admin);
    const { credential } = await enrolAgent(admin, { kind: "gateway-manager", regionId: own.regionId });
    const registered = await post(
      "/agents/me/gateways",
      { name: unique("edge"), publicHost: "edge.example.net", capacity: 100, health: "healthy" },
      credential,
    );
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ regionId: own.regionId, health: "healthy", status: "active" });
    const updated = await call("PATCH", `/agents/me/gateways/${own.id}`, { token: credential, body: { capacity: 7, health: "degraded" } });
    expect(updated.body).toMatchObject({ capacity: 7, health: "degraded" });
    expect(updated.body.healthCheckedAt).not.toBeNull();
    expect((await get(`/gateways/${own.id}`, admin.token)).body.capacity).toBe(7);
    expectError(await call("PATCH", `/agents/me/gateways/${foreign.id}`, { token: credential, body: { capacity: 1 } }), 404, "not_found");
    const mine = (await get("/agents/me/gateways", credential)).body.items.map((g: { id: string }) => g.id);
    expect(mine).toEqual(expect.arrayContaining([own.id, registered.body.id]));
    expect(mine).not.toContain(foreign.id);

    // The list pages like every other list: one gateway per page here, then the end.
    const first = await get("/agents/me/gateways?limit=1", credential);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await get(`/agents/me/gateways?limit=1&cursor=${first.body.nextCursor}`, credential);
    expect([first.body.items[0].id, second.body.items[0].id].sort()).toEqual([own.id, registered.body.id].sort());
    expect(second.body.nextCursor).toBeNull();
  });
});

describe("gateway-daemon full cycle", () => {
  it("fetches desired state (ETag, 304), reports applied revisions and counters; runtime status and /tunnels follow", async () => {
    const admin = await signInAdmin();
    const {
      network,
      hops: [gw],
    } = await gatewayNetwork(admin, 1);
    const laptop = await enrolDevice(admin, { networkId: network.id });
    await post(`/networks/${network.id}/dns/records`, { name: "db", type: "A", value: "10.1.1.1" }, admin.token);
    const gatewayId = (await get(`/nodes/${gw!.id}`, admin.token)).body.gatewayId;
    const { credential } = await enrolAgent(admin, { kind: "gateway-daemon", gatewayId });
    const state = await get("/agents/me/desired-state", credential);
    expect(state.status).toBe(200);
    const [entry] = state.body.nodes;
    expect(entry).toMatchObject({ networkId: network.id, nodeId: gw!.id, config: { nodeId: gw!.id } });
    expect(entry.dns.zonefile).toContain("db\t300\tIN\tA\t10.1.1.1");
    expect(entry.dns.corefile).toContain(`file /etc/coredns/zones/${entry.dns.domain}.zone`);
    const etag = state.headers.get("etag")!;
    expect((await call("GET", "/agents/me/desired-state", { token: credential, headers: { "If-None-Match": etag } })).status).toBe(304);

    const report = await post(
      "/agents/me/report",
      {
        nodes: [
          {
            nodeId: gw!.id,
            appliedRoutingRevision: entry.config.routingRevision,
            appliedDnsRevision: entry.dns.revision,
            peers: [{ publicKey: laptop.body.node.publicKey, lastHandshakeAt: new Date().toISOString(), rxBytes: 10, txBytes: 20 }],
          },
        ],
      },
      credential,
    );
    expect(report.status, report.text).toBe(200);
    expect(report.body.nodes[0]).toMatchObject({ nodeId: gw!.id, configChanged: false });
    await call("POST", `/client/devices/${laptop.deviceId}/heartbeat`, {
      token: laptop.deviceToken,
      body: { appliedRevision: entry.config.routingRevision },
    });
    const status = (await get(`/networks/${network.id}/runtime-status`, admin.token)).body;
    expect(status.routing).toMatchObject({ inSync: true, appliedRevision: entry.config.routingRevision, unreported: [] });
    expect(status.dns).toMatchObject({ inSync: true, appliedRevision: entry.dns.revision });
    const tunnel = (await get(`/tunnels?nodeId=${gw!.id}`, admin.token)).body.items[0];
    expect(tunnel).toMatchObject({ fromNodeId: gw!.id, toNodeId: laptop.nodeId, state: "up", rxBytes: 10 });

    await post(`/networks/${network.id}/dns/records`, { name: "web", type: "A", value: "10.1.1.2" }, admin.token);
    expect((await call("GET", "/agents/me/desired-state", { token: credential, headers: { "If-None-Match": etag } })).status).toBe(200);
    expect((await get(`/networks/${network.id}/runtime-status`, admin.token)).body.dns).toMatchObject({ inSync: false, lagging: [gw!.id] });
    const foreign = await createNode(admin, network.id);
    expectError(
      await post("/agents/me/report", { nodes: [{ nodeId: foreign.id, appliedRoutingRevision: 1 }] }, credential),
      404,
      "not_found",
    );
  });
});
