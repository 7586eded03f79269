// Heartbeats as a device of a 10,000-node network sends them (issue 24): a delta peer report of the
// tunnels it uses (cli/peer-report.mjs), not an empty peer list. Each fleet device first sends its full
// report (as `wgo heartbeat` does on its first beat), then wrk drives the steady state: every beat, the
// ACTIVE_TUNNELS tunnels in use have new counters, on the base the server answered last (per device, in
// order). D1 rows are the network writer's meter (GET /networks/{id}/writer); the Worker's access read
// (one indexed lookup of the device) is not in it.
import type { ApiClient } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { profileDuring, profileLines } from "./cpu-profile.ts";
import { inParallel } from "./seed.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

/** Tunnels a device uses at once (its gateways and the peers it talks to); the other 9,900-odd never handshake. */
export const ACTIVE_TUNNELS = 50;
export const REAL_HEARTBEAT_DEVICES = 200;

const load = (name: string): Promise<any> => import(/* @vite-ignore */ `../cli/${name}`);

export interface RealHeartbeats {
  result: WrkResult;
  bodyBytes: number;
  rowsReadPerBeat: number;
  rowsWrittenPerBeat: number;
  /** The same in the network object's own SQLite (its hot state, issue 30): what Durable Objects bill. */
  hotRowsReadPerBeat: number;
  hotRowsWrittenPerBeat: number;
  fullReport: { pages: number; largestBytes: number };
  networkNodes: number;
  peers: number;
  /** Where the isolate's CPU went during the run (bench/cpu-profile.ts). */
  profile: string[];
}

/** `peerKeys`: keys of nodes of the network (the tunnels the devices report); at least ACTIVE_TUNNELS. */
export async function measureRealHeartbeats(
  server: WorkerServer,
  admin: ApiClient,
  networkId: string,
  peerKeys: string[],
  deviceKeys: string[],
): Promise<RealHeartbeats> {
  const { countersOf, emptyReportState, nextPage, reportPeers } = await load("peer-report.mjs");
  const network = (await admin.get(`/networks/${networkId}`)).body as { routingRevision: number };
  const at = Math.floor(Date.now() / 1000);
  // The interface of a device in the full mesh: every node a peer, ACTIVE_TUNNELS of them in use, each heard
  // from an address after NAT (the endpoint wgo reports since issue 28).
  const dump = peerKeys.map((publicKey, i) => ({
    publicKey,
    latestHandshake: i < ACTIVE_TUNNELS ? at - i : 0,
    rxBytes: i < ACTIVE_TUNNELS ? 3_000_000_000 + i : 0,
    txBytes: i < ACTIVE_TUNNELS ? 900_000_000 + i : 0,
    ...(i < ACTIVE_TUNNELS ? { endpoint: `198.51.${100 + Math.floor(i / 250)}.${i % 250}:${40000 + i}` } : {}),
  }));
  // Its own LAN endpoint, which wgo sends on every beat (the server writes it only when it changes).
  const localEndpoints = ["192.168.1.23:41641"];
  // One at a time: each enrolment answers a 10,000-peer config (about 3 MiB); a restarted isolate is retried.
  const fleet = await inParallel(REAL_HEARTBEAT_DEVICES, 1, async (i) => {
    const enrolled = await enrolRetrying(() => admin.post("/client/devices", { networkId, name: `real${i}`, publicKey: deviceKeys[i] }));
    const path = `/client/devices/${enrolled.device.id}/heartbeat`;
    const token = enrolled.deviceToken as string;
    // The first beat: a full report, as wgo sends it.
    const done = await reportPeers(emptyReportState(), countersOf(dump), async (peerReport: unknown) => {
      const answer = await fetch(`${server.baseUrl}/api/v1${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ appliedRevision: network.routingRevision, localEndpoints, peerReport }),
      });
      if (!answer.ok) throw new Error(`full report: ${answer.status} ${await answer.text()}`);
      return ((await answer.json()) as { peerReport: unknown }).peerReport;
    });
    return { path: `/api/v1${path}`, token, seq: done.state.seq as number, state: done.state };
  });
  // The steady-state beat: the tunnels in use moved traffic since the last report.
  const moved = dump.map((peer, i) =>
    i < ACTIVE_TUNNELS ? { ...peer, rxBytes: peer.rxBytes + 4096, txBytes: peer.txBytes + 1024 } : peer,
  );
  const page = nextPage(fleet[0]!.state, countersOf(moved));
  const body = JSON.stringify({ appliedRevision: network.routingRevision, localEndpoints, peerReport: { ...page, base: 123_456_789 } });
  const [prefix, suffix] = body.split("123456789") as [string, string];
  // What a device with every one of its 9,999 tunnels in use would send as its full report (computed, not sent).
  const everyTunnel = peerKeys.map((publicKey, i) => ({
    publicKey,
    latestHandshake: at - (i % 900),
    rxBytes: 3e9 + i,
    txBytes: 9e8 + i,
    endpoint: `198.51.${100 + (Math.floor(i / 250) % 150)}.${i % 250}:${40000 + (i % 20000)}`,
  }));
  const pages: unknown[] = [];
  await reportPeers(emptyReportState(), countersOf(everyTunnel), async (peerReport: unknown) => {
    pages.push({ appliedRevision: network.routingRevision, localEndpoints, peerReport });
    return { seq: pages.length, resync: false };
  });

  const stats = async () =>
    (await admin.get(`/networks/${networkId}/writer`)).body as {
      rowsRead: number;
      rowsWritten: number;
      hotRowsRead: number;
      hotRowsWritten: number;
    };
  const before = await stats();
  const scratch = await scratchDir();
  const { result, ...profile } = await profileDuring(server, () =>
    runWrk(
      server.baseUrl,
      {
        label: `POST heartbeat with a delta peer report (${ACTIVE_TUNNELS} tunnels in use), ${REAL_HEARTBEAT_DEVICES} devices in turn`,
        method: "POST",
        path: "/api/v1/health",
        rotate: fleet.map(({ path, token }) => ({ path, token })),
        sequenced: { prefix, suffix, seqs: fleet.map((device) => device.seq) },
      },
      scratch,
    ),
  );
  const after = await stats();
  return {
    result,
    bodyBytes: Buffer.byteLength(body),
    rowsReadPerBeat: (after.rowsRead - before.rowsRead) / result.requests,
    rowsWrittenPerBeat: (after.rowsWritten - before.rowsWritten) / result.requests,
    hotRowsReadPerBeat: (after.hotRowsRead - before.hotRowsRead) / result.requests,
    hotRowsWrittenPerBeat: (after.hotRowsWritten - before.hotRowsWritten) / result.requests,
    fullReport: { pages: pages.length, largestBytes: Math.max(...pages.map((p) => Buffer.byteLength(JSON.stringify(p)))) },
    networkNodes: peerKeys.length + REAL_HEARTBEAT_DEVICES,
    peers: peerKeys.length,
    profile: profileLines({ result, ...profile }),
  };
}

/** wrangler dev answers 503 when its isolate restarted mid-request; the name is unique, so a 409 after one means it landed. */
async function enrolRetrying(send: () => Promise<{ status: number; body: any; text: string }>) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const answer = await send();
    if (answer.status === 201) return answer.body;
    if (answer.status !== 503) throw new Error(`enrolling a fleet device: ${answer.status} ${answer.text}`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new Error("enrolling a fleet device: 503 five times");
}

async function scratchDir() {
  const { mkdtemp } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  return mkdtemp(join(tmpdir(), "bench-hb-"));
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

export function realHeartbeatLines(real: RealHeartbeats, baseline?: WrkResult): string[] {
  const r = real.result;
  return [
    `Heartbeats as a device of a ${real.networkNodes.toLocaleString("en")}-node network sends them (${r.label}):`,
    `body ${real.bodyBytes} bytes; ${fmt(r.requestsPerSecond)}/s, p50 ${fmt(r.p50Ms, 2)} ms, p99 ${fmt(r.p99Ms, 2)} ms, ${r.non2xx} non-2xx,`,
    `${r.resyncs ?? 0} resyncs; D1 per heartbeat (the writer's meter): ${fmt(real.rowsReadPerBeat)} rows read, ${fmt(real.rowsWrittenPerBeat)} written;`,
    `the network object's own SQLite per heartbeat: ${fmt(real.hotRowsReadPerBeat)} rows read, ${fmt(real.hotRowsWrittenPerBeat)} written.`,
    ...(baseline
      ? [
          `Against the bare handler (GET /health) at ${fmt(baseline.requestsPerSecond)}/s: ${fmt((100 * r.requestsPerSecond) / baseline.requestsPerSecond, 0)}%.`,
        ]
      : []),
    "CPU profile of the run (the Worker and the network's object share the isolate):",
    ...real.profile,
    `A full report with every one of ${real.peers} tunnels in use (computed by wgo's own paging): ${real.fullReport.pages} requests, the largest ${real.fullReport.largestBytes} bytes (limit 65536).`,
    "10,000 devices every 30 s need 333/s.",
  ];
}
