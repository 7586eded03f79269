// A gateway agent's report writes D1 only when the directory's copy changes (services/agents/reports.ts): its
// nodes' applied revisions or error, their last-seen once livenessRefreshSeconds old, a probe run that moved.
// Every report's time is in the network's object, and pool health reads it there, not D1's refreshed copy.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { getConfig } from "../../src/lib/env";
import { unwrap } from "../../src/lib/write-result";
import { livenessRefreshSeconds } from "../../src/services/networks/pools/vitals";
import { networkWriter } from "../../src/objects/network/client";
import { get, put } from "../helpers/api";
import { chain, enrolDaemon, poolOf, routingRevision, setSeen } from "../gateway-pools/support";
import { countingD1 } from "./counting-d1";

const app = createApp();

/** What a gateway agent sends for one node: its revision, its tunnels (as wgo reports them) and its probes. */
const entry = (nodeId: string, revision: number, probes: { acrossNodeId: string; target: string; ok: boolean }[] = []) => ({
  nodeId,
  appliedRoutingRevision: revision,
  peers: [1, 2, 3].map((i) => ({
    publicKey: btoa(String.fromCharCode(...new Uint8Array(32).fill(40 + i))),
    lastHandshakeAt: new Date(Date.now() - 5_000).toISOString(),
    rxBytes: 1_000 * i,
    txBytes: 2_000 * i,
  })),
  ...(probes.length > 0 ? { probes } : {}),
});

/** One report through the Worker, on a D1 binding that counts what it writes. */
async function report(credential: string, nodes: ReturnType<typeof entry>[]) {
  const { db, counter } = countingD1(env.DB);
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request("http://api.test/api/v1/agents/me/report", {
      method: "POST",
      headers: { Authorization: `Bearer ${credential}`, "Content-Type": "application/json" },
      body: JSON.stringify({ nodes }),
    }),
    { ...env, DB: db },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(response.status, await response.clone().text()).toBe(200);
  return counter.rowsWritten;
}

const d1SeenAt = async (nodeId: string) =>
  (await env.DB.prepare("SELECT last_seen_at AS at FROM nodes WHERE id = ?").bind(nodeId).first<{ at: string | null }>())!.at;

describe("a gateway agent's report writes D1 only when the directory's copy changes", () => {
  it("a steady report writes no D1 row; a new revision, a moved probe run or a stale last-seen writes its row", async () => {
    const { admin, network, gw1, gw2, gw4 } = await chain();
    const prober = await enrolDaemon(admin, gw1.gatewayId);
    const revision = await routingRevision(network.id, admin.token);
    const asked = { acrossNodeId: gw2.id, target: gw4.address };
    // As an agent starts: its desired state first (which records the agent's own last-seen, once a minute).
    expect((await get("/agents/me/desired-state", prober)).status).toBe(200);
    // The first report: its node's applied revision is new to D1 (the row, and its entry in nodes_last_seen_idx:
    // D1 counts index writes); a healthy probe run writes none.
    expect(await report(prober, [entry(gw1.id, revision - 1, [{ ...asked, ok: true }])])).toBe(2);
    const written = await d1SeenAt(gw1.id);
    // The same again, as an agent sends every few seconds: nothing for D1.
    expect(await report(prober, [entry(gw1.id, revision - 1, [{ ...asked, ok: true }])])).toBe(0);
    expect(await report(prober, [entry(gw1.id, revision - 1, [{ ...asked, ok: true }])])).toBe(0);
    expect(await d1SeenAt(gw1.id)).toBe(written);
    // Reads of the node ask its network's object, which holds the last report's time.
    const node = (await get(`/nodes/${gw1.id}`, admin.token)).body;
    expect(node.lastSeenAt > written!).toBe(true);
    // The node applied the current revision: its row changes (the crons' drift check reads it).
    expect(await report(prober, [entry(gw1.id, revision, [{ ...asked, ok: true }])])).toBe(2);
    // A failed probe starts a run (its row and that row's index entry) and, at POOL_PROBE_FAILURES (1), fails the
    // pool over (in the writer: not this binding).
    expect(await report(prober, [entry(gw1.id, revision, [{ ...asked, ok: false }])])).toBe(2);
    // D1's last-seen is refreshed once livenessRefreshSeconds old, so the crons (offline, drift) see the node.
    const refresh = livenessRefreshSeconds(getConfig(env));
    await setSeen([gw1.id], refresh + 1);
    const current = await routingRevision(network.id, admin.token);
    expect(await report(prober, [entry(gw1.id, current)])).toBe(2);
    expect(Date.now() - Date.parse((await d1SeenAt(gw1.id))!)).toBeLessThan(refresh * 1000);
  });

  it("follows the offline threshold in force: lowered in the admin settings, D1's last-seen is refreshed sooner", async () => {
    const { admin, network, gw1 } = await chain();
    const agent = await enrolDaemon(admin, gw1.gatewayId);
    expect((await get("/agents/me/desired-state", agent)).status).toBe(200);
    const revision = await routingRevision(network.id, admin.token);
    expect(await report(agent, [entry(gw1.id, revision)])).toBe(2);
    const lowered = await put("/admin/settings", { heartbeat: { offlineAfterSeconds: 30 } }, admin.token);
    expect(lowered.status, lowered.text).toBe(200);
    try {
      // 10 s old is fresh enough at the environment's 300 s (a minute's refresh), not at 30 s (a 7 s refresh): the
      // minute's cron would judge a reporting node offline from a copy up to a minute old.
      await setSeen([gw1.id], 10);
      expect(await report(agent, [entry(gw1.id, revision)])).toBe(2);
      expect(Date.now() - Date.parse((await d1SeenAt(gw1.id))!)).toBeLessThan(7_000);
    } finally {
      expect((await put("/admin/settings", { heartbeat: { offlineAfterSeconds: null } }, admin.token)).status).toBe(200);
    }
  });

  it("pool health reads each member's last report from the object: an old D1 last-seen does not make it stale", async () => {
    const { admin, network, pool, gw1, gw2, gw3, gw4 } = await chain();
    const agents = await Promise.all([gw1, gw2, gw3, gw4].map((gw) => enrolDaemon(admin, gw.gatewayId)));
    const revision = await routingRevision(network.id, admin.token);
    for (const [index, gw] of [gw1, gw2, gw3, gw4].entries()) await report(agents[index]!, [entry(gw.id, revision)]);
    // D1's copy of the active member as old as a minute's refresh can leave it (past POOL_STALE_SECONDS, 10 s),
    // the standby's fresh: judged on D1 alone, the pool would fail over to gw3.
    await setSeen([gw2.id], 60);
    expect((await unwrap(networkWriter(env, network.id).evaluatePools(network.id))).failovers).toEqual([]);
    const shown = await poolOf(pool.id, admin.token);
    expect(shown.activeNodeId).toBe(gw2.id);
    expect(shown.members.map((member: { nodeId: string; healthy: boolean }) => [member.nodeId, member.healthy])).toEqual([
      [gw2.id, true],
      [gw3.id, true],
    ]);
  });
});
