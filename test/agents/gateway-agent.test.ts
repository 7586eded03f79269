import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get, patch, post, put } from "../helpers/api";
import { expectError, expectRefused } from "../helpers/expect-error";
import { createGateway, createNode, fakePublicKey, networkSetup, unique, type Session } from "../helpers/factories";
import { rowsOf } from "../helpers/state";
import { networkWriter } from "../../src/objects/network/client";

const nodesAndNetworks = rowsOf("nodes", "networks");

async function enrolDaemon(admin: Session, gatewayId: string) {
  const issued = await post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId }, admin.token);
  expect(issued.status, issued.text).toBe(201);
  const enrolled = await post("/agents/enrol", { token: issued.body.token, name: unique("agent"), version: "1.0.0" });
  expect(enrolled.status, enrolled.text).toBe(201);
  return { agentId: enrolled.body.agent.id as string, credential: enrolled.body.credential as string };
}

/** A gateway node on its own inventory gateway, created without a key: it awaits its agent. */
async function keylessGatewayNode(admin: Session, networkId: string, name = unique("gw")) {
  const gateway = await createGateway(admin);
  const created = await post(
    "/nodes",
    { networkId, name, roles: ["gateway"], gatewayId: gateway.id, endpoint: "198.51.100.9:51820" },
    admin.token,
  );
  expect(created.status, created.text).toBe(201);
  return { gateway, node: created.body };
}

const routingRevision = async (networkId: string, token: string) =>
  (await get(`/networks/${networkId}`, token)).body.routingRevision as number;
const configOf = async (nodeId: string, token: string) => (await get(`/nodes/${nodeId}/config`, token)).body;
const agentAuditRows = async (agentId: string) =>
  (
    await env.DB.prepare("SELECT route, resource_id AS resourceId, status FROM audit_events WHERE actor_type = 'agent' AND actor_id = ?")
      .bind(agentId)
      .all()
  ).results;

describe("gateway nodes awaiting their agent's key", () => {
  it("are created without a key (publicKey null) and are nobody's peer; other nodes must bring a key", async () => {
    const { admin, network } = await networkSetup();
    const laptop = await createNode(admin, network.id, { name: "laptop" });
    const { node } = await keylessGatewayNode(admin, network.id, "gw-a");
    expect(node).toMatchObject({ publicKey: null, servesDns: false, roles: ["gateway"] });
    // Two keyless nodes in one network: '' is outside the key's unique index.
    const { node: second } = await keylessGatewayNode(admin, network.id, "gw-b");
    expect(second.publicKey).toBeNull();
    expect((await get(`/nodes/${node.id}`, admin.token)).body.publicKey).toBeNull();

    const config = await configOf(laptop.id, admin.token);
    expect(config.peers.map((peer: { nodeId: string }) => peer.nodeId)).not.toContain(node.id);
    expect(config.wgQuick).not.toMatch(/^PublicKey = *$/m);
    expect(config.wgQuick).not.toContain("gw-a");
    // The keyless node's own config is served (its agent fetches it); the laptop is its peer.
    const own = await configOf(node.id, admin.token);
    expect(own.peers.map((peer: { nodeId: string }) => peer.nodeId)).toContain(laptop.id);

    await expectRefused(
      nodesAndNetworks,
      () => post("/nodes", { networkId: network.id, name: "nokey" }, admin.token),
      422,
      "VALIDATION_ERROR",
      ["publicKey"],
    );
    await expectRefused(
      nodesAndNetworks,
      () => post("/nodes", { networkId: network.id, name: "dns", publicKey: fakePublicKey(), servesDns: true }, admin.token),
      422,
      "VALIDATION_ERROR",
      ["servesDns"],
    );
    await expectRefused(nodesAndNetworks, () => patch(`/nodes/${laptop.id}`, { servesDns: true }, admin.token), 422, "VALIDATION_ERROR", [
      "servesDns",
    ]);
    // A keyless gateway node cannot stop being a gateway: it would be a keyless plain node.
    await expectRefused(nodesAndNetworks, () => patch(`/nodes/${node.id}`, { roles: [] }, admin.token), 422, "VALIDATION_ERROR", [
      "publicKey",
    ]);
  });
});

describe("PUT /agents/me/nodes/{nodeId}", () => {
  it("registers the key and servesDns of the daemon's own node: one revision, one audit row; the same again changes nothing", async () => {
    const { admin, network } = await networkSetup();
    const laptop = await createNode(admin, network.id, { name: "laptop" });
    const { gateway, node } = await keylessGatewayNode(admin, network.id, "gw-a");
    const other = await createNode(admin, network.id, { name: "gw-b", gatewayId: (await createGateway(admin)).id });
    const { agentId, credential } = await enrolDaemon(admin, gateway.id);
    const before = await routingRevision(network.id, admin.token);
    const key = fakePublicKey();

    const registered = await put(`/agents/me/nodes/${node.id}`, { publicKey: key, servesDns: true }, credential);
    expect(registered.status, registered.text).toBe(200);
    expect(registered.body).toMatchObject({ id: node.id, publicKey: key, servesDns: true, revision: before + 1 });
    expect(await routingRevision(network.id, admin.token)).toBe(before + 1);
    const config = await configOf(laptop.id, admin.token);
    expect(config.peers.find((peer: { nodeId: string }) => peer.nodeId === node.id)).toMatchObject({ publicKey: key });
    expect(config.wgQuick).toContain(`PublicKey = ${key}`);
    expect(await agentAuditRows(agentId)).toEqual([{ route: "/agents/me/nodes/:nodeId", resourceId: node.id, status: 200 }]);

    const again = await put(`/agents/me/nodes/${node.id}`, { publicKey: key, servesDns: true }, credential);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ publicKey: key, revision: before + 1 });
    expect(await routingRevision(network.id, admin.token)).toBe(before + 1);
    expect(await agentAuditRows(agentId)).toHaveLength(1);

    // Another gateway's node, a plain node, an unknown id: all "not found" to this agent.
    for (const id of [other.id, laptop.id, "node_missing"]) {
      await expectRefused(
        nodesAndNetworks,
        () => put(`/agents/me/nodes/${id}`, { publicKey: fakePublicKey(), servesDns: false }, credential),
        404,
        "not_found",
      );
    }
    await expectRefused(
      nodesAndNetworks,
      () => put(`/agents/me/nodes/${node.id}`, { publicKey: laptop.publicKey, servesDns: true }, credential),
      409,
      "conflict",
    );
    await expectRefused(
      nodesAndNetworks,
      () => put(`/agents/me/nodes/${node.id}`, { publicKey: "not-a-key", servesDns: true }, credential),
      422,
      "VALIDATION_ERROR",
      ["publicKey"],
    );
    await expectRefused(
      nodesAndNetworks,
      () => put(`/agents/me/nodes/${node.id}`, { publicKey: fakePublicKey(), servesDns: true }, admin.token),
      401,
      "unauthorized",
    );
    // A revoked credential stops working at once.
    expect((await post(`/agents/${agentId}/revoke`, {}, admin.token)).status).toBe(200);
    await expectRefused(
      nodesAndNetworks,
      () => put(`/agents/me/nodes/${node.id}`, { publicKey: fakePublicKey(), servesDns: true }, credential),
      401,
      "unauthorized",
    );
  });
});

describe("who may register a node's key is decided in the writer's write", () => {
  it("refuses a node moved to another gateway, and an agent revoked after its request was authenticated", async () => {
    const { admin, network } = await networkSetup();
    const { gateway, node } = await keylessGatewayNode(admin, network.id);
    const { agentId, credential } = await enrolDaemon(admin, gateway.id);
    // The node moves to another inventory gateway: its old agent no longer runs it.
    const elsewhere = await createGateway(admin);
    expect((await patch(`/nodes/${node.id}`, { gatewayId: elsewhere.id }, admin.token)).status).toBe(200);
    await expectRefused(
      nodesAndNetworks,
      () => put(`/agents/me/nodes/${node.id}`, { publicKey: fakePublicKey(), servesDns: false }, credential),
      404,
      "not_found",
    );
    expect((await patch(`/nodes/${node.id}`, { gatewayId: gateway.id }, admin.token)).status).toBe(200);

    // Revoked between authentication and the write: the request reaches the writer with the identity its
    // credential named then (sent straight to the writer here, past the middleware that would now refuse it).
    expect((await post(`/agents/${agentId}/revoke`, {}, admin.token)).status).toBe(200);
    const late = () =>
      networkWriter(env, network.id).applyAgentNodeState(
        network.id,
        node.id,
        { agentId, gatewayId: gateway.id },
        { publicKey: fakePublicKey(), servesDns: true },
      );
    const before = await nodesAndNetworks();
    const result = await late();
    expect(result).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await nodesAndNetworks(), "no key, no revision, no audit row").toEqual(before);
    expect((await get(`/nodes/${node.id}`, admin.token)).body).toMatchObject({ publicKey: null, servesDns: false });
    expect(await agentAuditRows(agentId)).toEqual([]);
  });
});

describe("desired state for the gateway agent", () => {
  it("names each node's address, key and servesDns; a long poll answers a change made while it waits", async () => {
    const { admin, network } = await networkSetup();
    const { gateway, node } = await keylessGatewayNode(admin, network.id);
    const { credential } = await enrolDaemon(admin, gateway.id);
    const first = await get("/agents/me/desired-state", credential);
    expect(first.status, first.text).toBe(200);
    expect(first.body.nodes).toEqual([
      expect.objectContaining({ nodeId: node.id, address: node.address, publicKey: null, servesDns: false }),
    ]);
    const etag = first.headers.get("etag")!;

    // Nothing changes: the wait runs out into a 304.
    const idle = await call("GET", "/agents/me/desired-state?wait=1", { token: credential, headers: { "If-None-Match": etag } });
    expect(idle.status).toBe(304);

    // The registration lands while the poll waits: the poll answers it, not a 304.
    const waiting = call("GET", "/agents/me/desired-state?wait=5", { token: credential, headers: { "If-None-Match": etag } });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const key = fakePublicKey();
    expect((await put(`/agents/me/nodes/${node.id}`, { publicKey: key, servesDns: true }, credential)).status).toBe(200);
    const woken = await waiting;
    expect(woken.status, woken.text).toBe(200);
    expect(woken.headers.get("etag")).not.toBe(etag);
    const revision = await routingRevision(network.id, admin.token);
    expect(woken.body.nodes).toEqual([
      expect.objectContaining({
        nodeId: node.id,
        publicKey: key,
        servesDns: true,
        config: expect.objectContaining({ routingRevision: revision }),
      }),
    ]);
    expectError(await get("/agents/me/desired-state?wait=61", credential), 422, "VALIDATION_ERROR", ["wait"]);
  });
});

describe("agent reports", () => {
  it("store what a node could not apply, show it in runtime status, and clear it with a clean report", async () => {
    const { admin, network } = await networkSetup();
    const { gateway, node } = await keylessGatewayNode(admin, network.id);
    const { credential } = await enrolDaemon(admin, gateway.id);
    const revision = await routingRevision(network.id, admin.token);
    const error = "address 10.0.0.1/24 is already on eth1";
    const failed = await post(
      "/agents/me/report",
      { nodes: [{ nodeId: node.id, appliedRoutingRevision: revision - 1, error }] },
      credential,
    );
    expect(failed.status, failed.text).toBe(200);
    const status = (await get(`/networks/${network.id}/runtime-status`, admin.token)).body;
    expect(status.routing.failing).toEqual([{ nodeId: node.id, error }]);

    expectError(
      await post(
        "/agents/me/report",
        { nodes: [{ nodeId: node.id, appliedRoutingRevision: revision, error: "x".repeat(501) }] },
        credential,
      ),
      422,
      "VALIDATION_ERROR",
      ["nodes.0.error"],
    );
    const clean = await post("/agents/me/report", { nodes: [{ nodeId: node.id, appliedRoutingRevision: revision }] }, credential);
    expect(clean.status, clean.text).toBe(200);
    expect((await get(`/networks/${network.id}/runtime-status`, admin.token)).body.routing.failing).toEqual([]);
  });
});
