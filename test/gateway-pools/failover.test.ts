// Failover: the network's writer evaluates pool health (reports, probes, drain) and moves a pool's traffic to
// another member as a routing change like any other: a revision bump, new configs for the hops around it,
// an audit row (actor system) and a gateway.failover notification.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, patch, post } from "../helpers/api";
import { unwrap } from "../../src/lib/write-result";
import { networkWriter } from "../../src/objects/network/client";
import { allowedVia, chain, configOf, DESTINATION, enrolDaemon, poolNetwork, poolOf, routingRevision, setSeen } from "./support";

const failoverEvents = async (poolId: string) =>
  (
    await env.DB.prepare(
      "SELECT type, data FROM notification_events WHERE subject_id = ? AND type = 'gateway.failover' ORDER BY created_at",
    )
      .bind(poolId)
      .all<{ type: string; data: string }>()
  ).results.map((row) => JSON.parse(row.data));
const systemAuditRows = async (poolId: string) =>
  (
    await env.DB.prepare(
      "SELECT actor_type AS actorType, route, resource_id AS resourceId FROM audit_events WHERE resource_id = ? AND actor_type = 'system'",
    )
      .bind(poolId)
      .all()
  ).results;

describe("gateway pool failover", () => {
  it("routes a policy through the pool's active member; the standby hangs beside it below gw1; a stale active fails over to it", async () => {
    const { admin, network, gw1, gw2, gw3, gw4, pool, device } = await chain();
    // Through the active member: gw1 sends the destination to gw2; the device's intent names the effective path.
    const before = {
      gw1: await configOf(gw1.id, admin.token),
      gw4: await configOf(gw4.id, admin.token),
      device: await configOf(device.nodeId, admin.token),
    };
    expect(allowedVia(before.gw1, gw2.id)).toContain(DESTINATION);
    expect(allowedVia(before.gw1, gw3.id)).toEqual([`${gw3.address}/32`]);
    expect(before.gw4.routingIntent[0]).toMatchObject({ role: "egress", previousHop: gw2.id, path: [gw1.id, gw2.id, gw4.id] });
    expect(before.device.routingIntent[0]).toMatchObject({ role: "source", path: [gw1.id, gw2.id, gw4.id] });
    // The standby hangs below gw1 beside the active member: the device reaches both through gw1, so a
    // failover changes nothing in the device's config.
    expect(allowedVia(before.device, gw1.id)).toEqual(expect.arrayContaining([`${gw2.address}/32`, `${gw3.address}/32`]));
    expect(before.device.peers.map((peer: { nodeId: string }) => peer.nodeId)).not.toContain(gw3.id);

    // A healthy pool does not change.
    expect((await unwrap(networkWriter(env, network.id).evaluatePools(network.id))).failovers).toEqual([]);
    const revision = await routingRevision(network.id, admin.token);
    await setSeen([gw2.id], 60);
    const { failovers } = await unwrap(networkWriter(env, network.id).evaluatePools(network.id));
    expect(failovers).toEqual([{ poolId: pool.id, from: gw2.id, to: gw3.id, reason: "unhealthy: stale report" }]);
    expect(await routingRevision(network.id, admin.token)).toBe(revision + 1);

    // The previous hop, the next hop and the sources get their new peers' routes.
    const after = {
      gw1: await configOf(gw1.id, admin.token),
      gw4: await configOf(gw4.id, admin.token),
      device: await configOf(device.nodeId, admin.token),
    };
    expect(allowedVia(after.gw1, gw3.id)).toContain(DESTINATION);
    expect(allowedVia(after.gw1, gw2.id)).toEqual([`${gw2.address}/32`]);
    expect(after.gw4.routingIntent[0]).toMatchObject({ previousHop: gw3.id, path: [gw1.id, gw3.id, gw4.id] });
    expect(after.device.routingIntent[0].path).toEqual([gw1.id, gw3.id, gw4.id]);
    expect(after.device.peers, "the device's peers and their AllowedIPs do not move").toEqual(before.device.peers);

    const shown = await poolOf(pool.id, admin.token);
    expect(shown).toMatchObject({ activeNodeId: gw3.id, lastFailover: { from: gw2.id, to: gw3.id, reason: "unhealthy: stale report" } });
    expect(shown.members[0]).toMatchObject({ nodeId: gw2.id, healthy: false, health: { reason: "stale report" } });
    expect(await systemAuditRows(pool.id)).toEqual([{ actorType: "system", route: "gateway.failover", resourceId: pool.id }]);
    expect(await failoverEvents(pool.id)).toEqual([
      expect.objectContaining({
        pool: { id: pool.id, name: expect.any(String) },
        from: gw2.id,
        to: gw3.id,
        reason: "unhealthy: stale report",
      }),
    ]);

    // Recovered, gw2 stays standby (no preemption): no flapping.
    await setSeen([gw2.id], 0);
    expect((await unwrap(networkWriter(env, network.id).evaluatePools(network.id))).failovers).toEqual([]);
    expect((await poolOf(pool.id, admin.token)).activeNodeId).toBe(gw3.id);
    // With preempt on, the preferred member takes over once healthy, but not while it is held down after
    // the failover away from it (POOL_HOLD_DOWN_SECONDS, 30 s): a member that flaps does not pull traffic back.
    const preempting = await patch(`/gateway-pools/${pool.id}`, { preempt: true }, admin.token);
    expect(preempting.status, preempting.text).toBe(200);
    expect(preempting.body).toMatchObject({ activeNodeId: gw3.id });
    const heldUntil = Date.parse(preempting.body.members[0].health.heldDownUntil);
    expect(heldUntil - Date.parse(preempting.body.lastFailover.at)).toBe(30_000);
    // The writer's clock 31 s on (gw2 still reporting): the hold is over and gw2 takes the traffic back.
    await setSeen([gw2.id, gw3.id], -31);
    const later = await unwrap(networkWriter(env, network.id).evaluatePools(network.id, heldUntil + 1_000));
    expect(later.failovers).toEqual([{ poolId: pool.id, from: gw3.id, to: gw2.id, reason: "preempted" }]);
  });

  it("keeps the active member when no member is healthy, and says so in the policy status", async () => {
    const { admin, network, gw1, gw2, gw3, gw4, pool, policy } = await chain();
    await setSeen([gw2.id, gw3.id], 60);
    expect((await unwrap(networkWriter(env, network.id).evaluatePools(network.id))).failovers).toEqual([]);
    const status = await get(`/routing-policies/${policy.id}/status`, admin.token);
    expect(status.status, status.text).toBe(200);
    expect(status.body).toEqual({
      policyId: policy.id,
      routingRevision: await routingRevision(network.id, admin.token),
      hops: [
        {
          index: 0,
          poolId: null,
          activeNodeId: gw1.id,
          healthy: true,
          members: [
            {
              nodeId: gw1.id,
              priority: 0,
              drained: false,
              healthy: true,
              reason: null,
              heldDownUntil: null,
              lastSeenAt: expect.any(String),
              probeFailStreak: 0,
            },
          ],
          lastFailover: null,
        },
        {
          index: 1,
          poolId: pool.id,
          activeNodeId: gw2.id,
          healthy: false,
          members: [
            {
              nodeId: gw2.id,
              priority: 1,
              drained: false,
              healthy: false,
              reason: "stale report",
              heldDownUntil: null,
              lastSeenAt: expect.any(String),
              probeFailStreak: 0,
            },
            {
              nodeId: gw3.id,
              priority: 2,
              drained: false,
              healthy: false,
              reason: "stale report",
              heldDownUntil: null,
              lastSeenAt: expect.any(String),
              probeFailStreak: 0,
            },
          ],
          lastFailover: null,
        },
        expect.objectContaining({ index: 2, poolId: null, activeNodeId: gw4.id, healthy: true }),
      ],
    });
  });

  it("drains at once: a drained active member hands over (reason drained) and is never chosen while drained", async () => {
    const { admin, network, gw2, gw3, pool } = await chain();
    const revision = await routingRevision(network.id, admin.token);
    const drained = await post(`/gateway-pools/${pool.id}/members/${gw2.id}/drain`, {}, admin.token);
    expect(drained.status, drained.text).toBe(200);
    expect(drained.body).toMatchObject({ activeNodeId: gw3.id, lastFailover: { from: gw2.id, to: gw3.id, reason: "drained" } });
    expect(drained.body.members[0]).toMatchObject({ nodeId: gw2.id, drained: true, healthy: false, health: { reason: "drained" } });
    // The drain and the failover: two revisions.
    expect(await routingRevision(network.id, admin.token)).toBe(revision + 2);
    expect((await failoverEvents(pool.id)).map((event) => event.reason)).toEqual(["drained"]);
    // gw3 goes stale: the drained gw2 is not chosen (no healthy member: gw3 stays).
    await setSeen([gw3.id], 60);
    expect((await unwrap(networkWriter(env, network.id).evaluatePools(network.id))).failovers).toEqual([]);
    // Undrained, gw2 is healthy again and takes the traffic from the stale gw3.
    const undrained = await post(`/gateway-pools/${pool.id}/members/${gw2.id}/undrain`, {}, admin.token);
    expect(undrained.status, undrained.text).toBe(200);
    expect(undrained.body).toMatchObject({ activeNodeId: gw2.id, lastFailover: { reason: "unhealthy: stale report" } });
    expect((await post(`/gateway-pools/${pool.id}/members/node_other/drain`, {}, admin.token)).status).toBe(404);
  });

  it("asks the hop before a pool to probe across its active member and each standby; a probe reported down fails over at once", async () => {
    const { admin, gw1, gw2, gw3, gw4, pool } = await chain();
    const credential = await enrolDaemon(admin, gw1.gatewayId);
    const desired = await get("/agents/me/desired-state", credential);
    expect(desired.status, desired.text).toBe(200);
    // The agent runs them continuously and judges them itself (docs/routing.md, Health).
    expect(desired.body.probeRules).toEqual({ intervalMs: 100, downAfter: 4, upAfter: 4 });
    const probesOf = (body: { nodes: { nodeId: string; probes: unknown[] }[] }) =>
      body.nodes.find((node) => node.nodeId === gw1.id)!.probes;
    const across = (member: { id: string }, target: { address: string }) => ({ acrossNodeId: member.id, target: target.address });
    expect(probesOf(desired.body)).toEqual(expect.arrayContaining([across(gw2, gw4), across(gw3, gw3)]));
    expect(probesOf(desired.body)).toHaveLength(2);

    const report = (...probes: { acrossNodeId: string; target: string; ok: boolean }[]) =>
      post("/agents/me/report", { nodes: [{ nodeId: gw1.id, appliedRoutingRevision: 1, probes }] }, credential);
    // The standby cannot be reached over its link: it is unreachable, and the active member keeps the traffic.
    await setSeen([gw2.id, gw3.id, gw4.id], 0);
    expect((await report({ ...across(gw3, gw3), ok: false })).status).toBe(200);
    let shown = await poolOf(pool.id, admin.token);
    expect(shown).toMatchObject({ activeNodeId: gw2.id, lastFailover: null });
    expect(shown.members[1]).toMatchObject({ nodeId: gw3.id, healthy: false, health: { reason: "unreachable", probeFailStreak: 1 } });
    // The active member stops forwarding while the standby is unreachable: no healthy member, nothing moves.
    expect((await report({ ...across(gw2, gw4), ok: false }, { ...across(gw3, gw3), ok: false })).status).toBe(200);
    expect((await poolOf(pool.id, admin.token)).activeNodeId).toBe(gw2.id);
    // The standby answers again: that report alone moves the traffic (one report, judged by the agent).
    expect((await report({ ...across(gw2, gw4), ok: false }, { ...across(gw3, gw3), ok: true })).status).toBe(200);
    shown = await poolOf(pool.id, admin.token);
    expect(shown).toMatchObject({ activeNodeId: gw3.id, lastFailover: { from: gw2.id, to: gw3.id, reason: "not forwarding" } });
    const now = await get("/agents/me/desired-state", credential);
    expect(probesOf(now.body)).toEqual(expect.arrayContaining([across(gw3, gw4), across(gw2, gw2)]));
    expect(probesOf(now.body)).toHaveLength(2);
    // Probes across a node of another network are ignored.
    const other = await poolNetwork();
    const foreign = await post(
      "/agents/me/report",
      { nodes: [{ nodeId: gw1.id, appliedRoutingRevision: 1, probes: [{ acrossNodeId: other.gw2.id, target: "10.0.0.1", ok: false }] }] },
      credential,
    );
    expect(foreign.status).toBe(200);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM forwarding_probes WHERE node_id = ?").bind(other.gw2.id).first())?.n).toBe(0);
  });

  it("counts only the probes of the node asked to run them: another gateway of the network cannot move a pool", async () => {
    const { admin, gw2, gw4, pool } = await chain();
    const credential = await enrolDaemon(admin, gw4.gatewayId);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await setSeen([gw2.id], 0);
      const sent = await post(
        "/agents/me/report",
        { nodes: [{ nodeId: gw4.id, appliedRoutingRevision: 1, probes: [{ acrossNodeId: gw2.id, target: "10.0.0.1", ok: false }] }] },
        credential,
      );
      expect(sent.status).toBe(200);
    }
    const shown = await poolOf(pool.id, admin.token);
    expect(shown.activeNodeId).toBe(gw2.id);
    expect(shown.members[0].health.probeFailStreak, "an unasked prober's run is not shown or counted").toBe(0);
  });

  it("is evaluated by the writer's alarm while a pool has a standby", async () => {
    const { admin, network, gw2, gw3, pool } = await chain();
    await setSeen([gw2.id], 60);
    const stub = env.NETWORK_WRITER.get(env.NETWORK_WRITER.idFromName(network.id));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await poolOf(pool.id, admin.token)).activeNodeId).toBe(gw3.id);
  });
});
