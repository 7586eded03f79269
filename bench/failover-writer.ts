// The network writer's side of failover (issue 27), through its meter (GET /networks/{id}/writer): the
// alarm's pool evaluation every POOL_CHECK_MS with nothing else running, an evaluation a report triggers
// (a probe turning), and one real failover (rows, revision bump, and the deltas every agent then fetches).
import { POOL_CHECK_MS } from "../src/objects/network/clocks/pool-clock.ts";
import type { ApiClient } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { agentCall, type BenchAgent, type FailoverNetwork } from "./failover-network.ts";
import { reportEntry } from "./failover-reports.ts";

export interface WriterMeter {
  statements: number;
  rowsRead: number;
  rowsWritten: number;
}

export const meterOf = async (admin: ApiClient, networkId: string): Promise<WriterMeter> =>
  (await admin.get(`/networks/${networkId}/writer`)).body;

export const minus = (a: WriterMeter, b: WriterMeter, per = 1): WriterMeter => ({
  statements: (a.statements - b.statements) / per,
  rowsRead: (a.rowsRead - b.rowsRead) / per,
  rowsWritten: (a.rowsWritten - b.rowsWritten) / per,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The alarm alone: the meter over `seconds` with no request, per tick. */
export async function idleTicks(admin: ApiClient, networkId: string, seconds: number) {
  const before = await meterOf(admin, networkId);
  await sleep(seconds * 1000);
  const ticks = (seconds * 1000) / POOL_CHECK_MS;
  return {
    ticks,
    perTick: minus(await meterOf(admin, networkId), before, ticks),
    perSecond: minus(await meterOf(admin, networkId), before, seconds),
  };
}

/**
 * One prober's reports, timed one after another: `steady` all probes up (no evaluation), `turning` down and
 * up in turn (each crosses the failure threshold or clears it: one evaluation of every pool in the request).
 * The chain's members have no agent, so no member is healthy to fail over to: the evaluation runs, no failover.
 */
export async function reportTimings(server: WorkerServer, admin: ApiClient, networkId: string, agent: BenchAgent, rounds: number) {
  const send = async (up: boolean) => {
    const started = performance.now();
    await agentCall(server, agent.credential, "POST", "/agents/me/report", { nodes: [reportEntry(agent, up, undefined)] });
    return performance.now() - started;
  };
  const steady: number[] = [];
  for (let i = 0; i < rounds; i++) steady.push(await send(true));
  const revision = async () => (await admin.get(`/networks/${networkId}`)).body.routingRevision as number;
  const revisionBefore = await revision();
  const before = await meterOf(admin, networkId);
  const started = Date.now();
  const turning: number[] = [];
  for (let i = 0; i < rounds; i++) turning.push(await send(i % 2 === 1));
  const after = await meterOf(admin, networkId);
  const bumps = (await revision()) - revisionBefore;
  // A last report leaves the probe up.
  if (rounds % 2 === 1) await send(true);
  return {
    steadyMs: median(steady),
    turningMs: median(turning),
    rounds,
    meter: minus(after, before, rounds),
    elapsedMs: Date.now() - started,
    bumps,
  };
}

export interface FailoverCost {
  reportMs: number;
  meter: WriterMeter;
  revisionBump: number;
  activeAfter: string;
  expected: string;
  deltas: {
    agents: number;
    changed: number;
    full: number;
    intents: number;
    upserted: number;
    removed: number;
    bytes: number;
    largest: number;
  };
}

/** Chain 0: both members report (healthy), then its prober reports the probe across the active member down. */
export async function oneFailover(server: WorkerServer, admin: ApiClient, net: FailoverNetwork): Promise<FailoverCost> {
  const pool = net.pools[0]!;
  const prober = net.probers[0]!;
  const revision = async () => (await admin.get(`/networks/${net.networkId}`)).body.routingRevision as number;
  for (const member of net.members) {
    await agentCall(server, member.credential, "POST", "/agents/me/report", { nodes: [reportEntry(member, true, undefined)] });
  }
  const before = await meterOf(admin, net.networkId);
  const revisionBefore = await revision();
  const down = {
    ...reportEntry(prober, true, undefined),
    probes: prober.probes.map((probe) => ({ ...probe, ok: probe.acrossNodeId !== pool.active })),
  };
  const started = performance.now();
  await agentCall(server, prober.credential, "POST", "/agents/me/report", { nodes: [down] });
  const reportMs = performance.now() - started;
  const meter = minus(await meterOf(admin, net.networkId), before);
  const revisionBump = (await revision()) - revisionBefore;
  const activeAfter = (await admin.get(`/gateway-pools/${pool.id}`)).body.activeNodeId as string;
  return {
    reportMs,
    meter,
    revisionBump,
    activeAfter,
    expected: pool.standby,
    deltas: await deltasAfter(server, [...net.probers, ...net.members], revisionBefore),
  };
}

/** What every agent fetches when its long poll answers after the bump: its desired state on the revision before it. */
async function deltasAfter(server: WorkerServer, agents: BenchAgent[], revision: number) {
  let changed = 0;
  let full = 0;
  let intents = 0;
  let upserted = 0;
  let removed = 0;
  let bytes = 0;
  let largest = 0;
  for (const agent of agents) {
    const held = `${agent.nodeId}:${revision}:${agent.dns}`;
    const answer = await fetch(`${server.baseUrl}/api/v1/agents/me/desired-state?held=${held}`, {
      headers: { Authorization: `Bearer ${agent.credential}` },
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`desired state after the failover: ${answer.status} ${text}`);
    const entry = JSON.parse(text).nodes.find((n: { nodeId: string }) => n.nodeId === agent.nodeId);
    const size = Buffer.byteLength(text);
    bytes += size;
    largest = Math.max(largest, size);
    // A whole config where the server had no delta from the held revision.
    if (entry?.config) full += 1;
    const delta = entry?.delta;
    // One agent far from chain 0 shows what a failover changes for a gateway it does not touch.
    if (agent === agents[50] && delta) {
      const upserted = delta.peersUpserted.map((p: { nodeId: string; allowedIps: string[] }) => `${p.nodeId} ${p.allowedIps.join(",")}`);
      console.log(
        `failover bench: delta of an untouched prober: upserted ${upserted.join("; ")}; removed ${delta.peersRemoved.join(", ")}`,
      );
    }
    if (delta?.routingIntent) intents += 1;
    upserted += delta?.peersUpserted?.length ?? 0;
    removed += delta?.peersRemoved?.length ?? 0;
    if (delta?.peersUpserted?.length || delta?.peersRemoved?.length) changed += 1;
  }
  return { agents: agents.length, changed, full, intents, upserted, removed, bytes, largest };
}
