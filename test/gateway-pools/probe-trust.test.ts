// Issue 24, item 2: a pool member's run of failed probes is moved only by the prober the network's writer
// chose (the hop before the pool), with exactly the probes it was asked to run. Any other gateway agent of
// the network (or a node of another network on the same gateway) can neither force a failover with failed
// probes nor cancel one with successes; such results are ignored and the rest of its report still lands.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { post } from "../helpers/api";
import { createNode, networkSetup } from "../helpers/factories";
import { chain, enrolDaemon, poolOf, setSeen } from "./support";

type ProbeResult = { acrossNodeId: string; target: string; ok: boolean };
type Entry = { nodeId: string; appliedRoutingRevision?: number; probes: ProbeResult[] };

const report = (credential: string, entries: Entry[]) =>
  post("/agents/me/report", { nodes: entries.map((entry) => ({ appliedRoutingRevision: 1, ...entry })) }, credential);

const stored = (nodeId: string) =>
  env.DB.prepare("SELECT fail_streak AS failStreak, prober_node_id AS proberNodeId FROM forwarding_probes WHERE node_id = ?")
    .bind(nodeId)
    .first<{ failStreak: number; proberNodeId: string }>();

/** The chain of support.ts with the agents of the assigned prober (gw1) and of another gateway of the network (gw4). */
async function setup() {
  const built = await chain();
  const prober = await enrolDaemon(built.admin, built.gw1.gatewayId);
  const intruder = await enrolDaemon(built.admin, built.gw4.gatewayId);
  // What gw1 was asked: across gw2 to gw4. The intruder reports exactly that pair, as an attacker would.
  const asked = { acrossNodeId: built.gw2.id, target: built.gw4.address };
  const fresh = () => setSeen([built.gw1.id, built.gw2.id, built.gw3.id, built.gw4.id], 0);
  return { ...built, prober, intruder, asked, fresh };
}

describe("issue 24 item 2: only the assigned prober moves a pool member's probe run", () => {
  it("six failed probes from another gateway's agent do not count: the prober's own report is what fails over", async () => {
    const { admin, gw2, gw3, gw4, gw1, pool, intruder, prober, asked, fresh } = await setup();
    for (let attempt = 1; attempt <= 6; attempt++) {
      await fresh();
      const sent = await report(intruder, [{ nodeId: gw4.id, probes: [{ ...asked, ok: false }] }]);
      expect(sent.status, sent.text).toBe(200);
    }
    expect(await stored(gw2.id), "nothing stored for an unasked prober").toBeNull();
    expect((await poolOf(pool.id, admin.token)).activeNodeId).toBe(gw2.id);
    // One report of the prober's with the probe down (the agent judged it over several echoes) is enough.
    await fresh();
    expect((await report(prober, [{ nodeId: gw1.id, probes: [{ ...asked, ok: false }] }])).status).toBe(200);
    expect(await stored(gw2.id)).toEqual({ failStreak: 1, proberNodeId: gw1.id });
    expect(await poolOf(pool.id, admin.token)).toMatchObject({
      activeNodeId: gw3.id,
      lastFailover: { from: gw2.id, reason: "not forwarding" },
    });
  });

  it("an 'ok' from another gateway's agent cannot make an unreachable standby eligible, nor keep a dead member active", async () => {
    const { admin, gw1, gw2, gw3, gw4, pool, intruder, prober, asked, fresh } = await setup();
    const standby = { acrossNodeId: gw3.id, target: gw3.address };
    const proberSays = async (...probes: ProbeResult[]) => expect((await report(prober, [{ nodeId: gw1.id, probes }])).status).toBe(200);
    await fresh();
    expect((await report(prober, [{ nodeId: gw1.id, probes: [{ ...standby, ok: false }] }])).status).toBe(200);
    expect((await report(intruder, [{ nodeId: gw4.id, probes: [{ ...standby, ok: true }] }])).status).toBe(200);
    expect((await poolOf(pool.id, admin.token)).members[1]).toMatchObject({ nodeId: gw3.id, health: { reason: "unreachable" } });
    // The active member fails too: with no healthy member nothing moves (the intruder's ok made gw3 no healthier).
    await fresh();
    await proberSays({ ...asked, ok: false }, { ...standby, ok: false });
    expect((await report(intruder, [{ nodeId: gw4.id, probes: [{ ...asked, ok: true }] }])).status).toBe(200);
    expect(await poolOf(pool.id, admin.token)).toMatchObject({ activeNodeId: gw2.id, lastFailover: null });
    expect((await poolOf(pool.id, admin.token)).members[0]).toMatchObject({ nodeId: gw2.id, health: { reason: "not forwarding" } });
    // The prober hears gw3 again: the traffic moves.
    await fresh();
    await proberSays({ ...asked, ok: false }, { ...standby, ok: true });
    expect(await poolOf(pool.id, admin.token)).toMatchObject({
      activeNodeId: gw3.id,
      lastFailover: { from: gw2.id, to: gw3.id, reason: "not forwarding" },
    });
    // Ignored, not refused: the prober's desired state a revision behind still names gw2; its report lands.
    await setSeen([gw1.id], 60);
    const late = await report(prober, [{ nodeId: gw1.id, probes: [{ ...asked, ok: false }] }]);
    expect(late.status, late.text).toBe(200);
    const seen = await env.DB.prepare("SELECT last_seen_at AS at FROM nodes WHERE id = ?").bind(gw1.id).first<{ at: string }>();
    expect(Date.now() - Date.parse(seen!.at)).toBeLessThan(10_000);
    expect(await stored(gw2.id), "the run across the former active member is not continued").toEqual({
      failStreak: 2,
      proberNodeId: gw1.id,
    });
  });

  it("a result for the asked member but a target nobody asked about neither counts nor clears", async () => {
    const { admin, gw1, gw2, gw3, pool, prober, asked, fresh } = await setup();
    const elsewhere = { acrossNodeId: gw2.id, target: "10.255.0.9" };
    for (let attempt = 1; attempt <= 3; attempt++) {
      await fresh();
      expect((await report(prober, [{ nodeId: gw1.id, probes: [{ ...elsewhere, ok: false }] }])).status).toBe(200);
    }
    expect(await stored(gw2.id)).toBeNull();
    expect((await poolOf(pool.id, admin.token)).activeNodeId).toBe(gw2.id);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await fresh();
      const probes = [
        { ...elsewhere, ok: true },
        { ...asked, ok: false },
      ];
      expect((await report(prober, [{ nodeId: gw1.id, probes }])).status).toBe(200);
    }
    expect(await poolOf(pool.id, admin.token)).toMatchObject({ activeNodeId: gw3.id, lastFailover: { reason: "not forwarding" } });
  });

  it("a report naming the prober's node from another gateway's agent is refused whole (404) and moves nothing", async () => {
    const { gw1, gw2, intruder, asked, fresh } = await setup();
    await fresh();
    const sent = await report(intruder, [{ nodeId: gw1.id, probes: [{ ...asked, ok: false }] }]);
    expect(sent.status, sent.text).toBe(404);
    expect(sent.body.error.code).toBe("not_found");
    expect(await stored(gw2.id)).toBeNull();
  });

  it("a node of another network on the prober's own gateway cannot speak for this network's member", async () => {
    const { admin, gw1, gw2, gw3, pool, prober, asked, fresh } = await setup();
    // Another group's network, with a gateway node on the same inventory gateway as gw1: one agent runs both.
    const other = await networkSetup();
    const tenant = await createNode(admin, other.network.id, { gatewayId: gw1.gatewayId, endpoint: "198.51.100.77:51820" });
    for (let attempt = 1; attempt <= 3; attempt++) {
      await fresh();
      const sent = await report(prober, [
        { nodeId: gw1.id, probes: [{ ...asked, ok: false }] },
        { nodeId: tenant.id, appliedRoutingRevision: 0, probes: [{ ...asked, ok: true }] },
      ]);
      expect(sent.status, sent.text).toBe(200);
    }
    expect(await poolOf(pool.id, admin.token)).toMatchObject({
      activeNodeId: gw3.id,
      lastFailover: { from: gw2.id, reason: "not forwarding" },
    });
  });
  it("a run an older release stored without its prober is taken over by the assigned prober, not left to stand", async () => {
    const { admin, network, gw1, gw2, gw3, pool, prober, asked, fresh } = await setup();
    // As migration 0010 left it: a run of 1 with no prober, which counts for nobody.
    await env.DB.prepare(
      "INSERT INTO forwarding_probes (node_id, network_id, fail_streak, checked_at, prober_node_id) VALUES (?, ?, 1, ?, NULL)",
    )
      .bind(gw2.id, network.id, new Date().toISOString())
      .run();
    await fresh();
    expect((await report(prober, [{ nodeId: gw1.id, probes: [{ ...asked, ok: false }] }])).status).toBe(200);
    expect(await stored(gw2.id)).toEqual({ failStreak: 1, proberNodeId: gw1.id });
    expect((await poolOf(pool.id, admin.token)).activeNodeId).toBe(gw3.id);
  });
});
