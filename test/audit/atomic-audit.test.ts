import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { networks } from "../../src/db/schema";
import type { AuditContext } from "../../src/services/audit/audit-trail";
import { commit } from "../../src/objects/network/commit";
import { DirectoryReads } from "../../src/objects/network/directory-reads";
import { createNode } from "../../src/objects/network/operations/nodes";
import { networkWriter } from "../../src/objects/network/client";
import { NetworkMemory } from "../../src/objects/network/memory/network-memory";
import { call, get, post } from "../helpers/api";
import { createGroup, createNetwork, fakePublicKey, signInAdmin, unique } from "../helpers/factories";

const auditRows = (requestId: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM audit_events WHERE request_id = ?")
    .bind(requestId)
    .first<{ n: number }>()
    .then((row) => row!.n);

/** The actor must be a real user who manages the network: the write re-checks that inside its batch. */
const context = (requestId: string | null, userId: string): AuditContext => ({
  actor: { type: "user", id: userId },
  requestId: requestId as string,
  method: "POST",
  route: "/nodes",
  params: {},
  status: 201,
});

describe("an audit row commits in the same batch as its change", () => {
  it("a write through the network's writer has its audit row, naming what it changed, when the writer answers", async () => {
    const admin = await signInAdmin();
    const network = await createNetwork(admin, (await createGroup(admin)).id);
    const requestId = unique("req");
    const result = await networkWriter(env, network.id).createNode(
      network.id,
      { name: unique("n"), publicKey: fakePublicKey() },
      context(requestId, admin.userId),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // No polling: the row committed with the node, before the writer answered.
    const row = await env.DB.prepare(
      "SELECT resource_id AS resourceId, network_id AS networkId, group_id AS groupId FROM audit_events WHERE request_id = ?",
    )
      .bind(requestId)
      .all();
    expect(row.results).toEqual([{ resourceId: result.value.id, networkId: network.id, groupId: network.groupId }]);
  });

  it("a change whose audit row cannot be written does not happen (node, address, revision untouched)", async () => {
    const admin = await signInAdmin();
    const network = await createNetwork(admin, (await createGroup(admin)).id);
    const name = unique("doomed");
    // request_id is NOT NULL: the audit insert fails inside the batch that carries the node. (Run in
    // process: the same command the writer delegates to, without an error crossing the RPC boundary.)
    const ctx = {
      env,
      db: createDb(env.DB),
      directory: new DirectoryReads(env, createDb(env.DB)),
      audit: context(null, admin.userId),
      notificationIds: [],
      memory: new NetworkMemory((task) => task()),
    };
    await expect(createNode(ctx, network.id, { name, publicKey: fakePublicKey() })).rejects.toThrow(/NOT NULL/);
    const nodes = await get(`/nodes?networkId=${network.id}`, admin.token);
    expect(nodes.body.items.map((node: { name: string }) => node.name)).not.toContain(name);
    const after = await get(`/networks/${network.id}`, admin.token);
    expect(after.body.routingRevision).toBe(network.routingRevision);
    expect(after.body.dnsRevision).toBe(network.dnsRevision);
  });

  it("a change that fails leaves no audit row", async () => {
    const admin = await signInAdmin();
    const network = await createNetwork(admin, (await createGroup(admin)).id);
    const db = createDb(env.DB);
    const requestId = unique("req");
    const ctx = {
      env,
      db,
      directory: new DirectoryReads(env, db),
      audit: context(requestId, admin.userId),
      notificationIds: [],
      memory: new NetworkMemory((task) => task()),
    };
    // A second network under an id that exists: the primary key refuses it, and the batch with it.
    const now = new Date().toISOString();
    const duplicate = db
      .insert(networks)
      .values({ ...network, name: unique("dup"), dnsDomain: "dup.internal", createdAt: now, updatedAt: now });
    await expect(
      commit(ctx, [duplicate], { action: "network.created", resourceId: network.id, networkId: network.id, groupId: network.groupId }),
    ).rejects.toThrow();
    expect(await auditRows(requestId)).toBe(0);
  });

  it("a refused write through the API (409) leaves no audit row; the accepted one leaves exactly one", async () => {
    const admin = await signInAdmin();
    const network = await createNetwork(admin, (await createGroup(admin)).id);
    const body = { networkId: network.id, name: unique("twin"), publicKey: fakePublicKey() };
    const first = await post("/nodes", body, admin.token);
    expect(first.status).toBe(201);
    const second = await post("/nodes", body, admin.token);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("conflict");
    expect(await auditRows(first.headers.get("x-request-id")!)).toBe(1);
    expect(await auditRows(second.headers.get("x-request-id")!)).toBe(0);
  });
});

describe("enrolment keys and password-reset requests record in their own write", () => {
  const rowOf = (requestId: string) =>
    env.DB.prepare("SELECT route, resource_id AS resourceId, network_id AS networkId, status FROM audit_events WHERE request_id = ?")
      .bind(requestId)
      .first<{ route: string; resourceId: string | null; networkId: string | null; status: number }>();

  it("issuing and revoking a key leave their rows by the time they answer; revoking an unknown key leaves none", async () => {
    const admin = await signInAdmin();
    const network = await createNetwork(admin, (await createGroup(admin)).id);
    const issued = await post(`/networks/${network.id}/enrolment-keys`, { name: unique("ci") }, admin.token);
    expect(issued.status).toBe(201);
    expect(await rowOf(issued.headers.get("x-request-id")!)).toEqual({
      route: "/networks/:id/enrolment-keys",
      resourceId: issued.body.id,
      networkId: network.id,
      status: 201,
    });
    const revoked = await call("DELETE", `/networks/${network.id}/enrolment-keys/${issued.body.id}`, { token: admin.token });
    expect(revoked.status).toBe(204);
    expect(await rowOf(revoked.headers.get("x-request-id")!)).toMatchObject({ resourceId: issued.body.id, status: 204 });
    const unknown = await call("DELETE", `/networks/${network.id}/enrolment-keys/ek_unknown`, { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    expect(await auditRows(unknown.headers.get("x-request-id")!)).toBe(0);
  });

  it("a password-reset request leaves one row whether or not the address has an account", async () => {
    for (const email of [`${unique("nobody")}@example.com`, "admin@example.com"]) {
      const asked = await call("POST", "/auth/password-reset/request", { body: { email }, headers: { "cf-connecting-ip": unique("ip") } });
      expect(asked.status).toBe(202);
      expect(await rowOf(asked.headers.get("x-request-id")!)).toEqual({
        route: "/auth/password-reset/request",
        resourceId: null,
        networkId: null,
        status: 202,
      });
    }
  });
});
