// Drives the fleet's reporters over HTTP from this process (keep-alive sockets, JSON bodies built per beat by wgo's
// code, so each device's base follows what the server answered, as wgo's does): `paced` at the rate the fleet sends
// (each device every 30 s, each gateway agent at its own schedule, spread evenly), `flatOut` as fast as the server
// answers with a fixed number in flight (wrk's -c16), devices and gateways mixed in the paced run's proportion.
// Latency is per request, from the call to the answer (a request queued for a socket waits inside it).
import { Agent, request } from "node:http";
import type { Answer, Reporter } from "./fleet-reports.ts";

/** How often a device beats (cli: `wgo up` runs its heartbeat every 30 s). */
export const DEVICE_PERIOD_MS = 30_000;

export interface RunFigures {
  label: string;
  seconds: number;
  requests: number;
  perSecond: number;
  device: Latency;
  gateway: Latency;
  non2xx: number;
  /** The non-2xx answers by status and error code ("503 overloaded"; status 0: no answer, the socket failed). */
  failures: Record<string, number>;
  resyncs: number;
  /** Paced only: beats due while the server was behind (the reporter's last beat unanswered, or PACED_MAX_OUTSTANDING in flight): not sent. */
  skipped: number;
}
export interface Latency {
  count: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : 0;
const latencyOf = (samples: number[]): Latency => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99) };
};

function postJson(agent: Agent, url: URL, token: string, body: unknown): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => {
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(text);
          } catch {
            // A non-JSON answer (a proxy's 502) counts by its status.
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** One run's bookkeeping: the sockets, each request's time by kind, failures, and which reporters are mid-beat. */
class Run {
  readonly agent: Agent;
  readonly times = { device: [] as number[], gateway: [] as number[] };
  non2xx = 0;
  readonly failures: Record<string, number> = {};
  resyncs = 0;
  skipped = 0;
  readonly busy = new Set<Reporter>();
  readonly pending = new Set<Promise<void>>();
  readonly started = performance.now();

  constructor(
    private readonly baseUrl: string,
    sockets: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  /** Starts one beat of `reporter` (its requests timed); resolves when it is answered. */
  beat(reporter: Reporter): Promise<void> {
    this.busy.add(reporter);
    const url = new URL(`${this.baseUrl}${reporter.path}`);
    const done = reporter
      .beat(async (body) => {
        const sent = performance.now();
        const answer = await postJson(this.agent, url, reporter.token, body).catch(() => ({ status: 0, body: null }));
        this.times[reporter.kind].push(performance.now() - sent);
        if (answer.status < 200 || answer.status > 299) {
          this.non2xx++;
          const code = (answer.body as { error?: { code?: string } } | null)?.error?.code;
          const kind = `${answer.status}${code ? ` ${code}` : ""}`;
          this.failures[kind] = (this.failures[kind] ?? 0) + 1;
        }
        return answer;
      })
      .then((outcome) => {
        this.resyncs += outcome.resyncs;
      })
      .finally(() => {
        this.busy.delete(reporter);
        this.pending.delete(done);
      });
    this.pending.add(done);
    return done;
  }

  async finish(label: string): Promise<RunFigures> {
    while (this.pending.size) await Promise.all([...this.pending]);
    const seconds = (performance.now() - this.started) / 1000;
    this.agent.destroy();
    const requests = this.times.device.length + this.times.gateway.length;
    return {
      label,
      seconds,
      requests,
      perSecond: requests / seconds,
      device: latencyOf(this.times.device),
      gateway: latencyOf(this.times.gateway),
      non2xx: this.non2xx,
      failures: this.failures,
      resyncs: this.resyncs,
      skipped: this.skipped,
    };
  }
}

/** When each reporter beats over `seconds`: device d of D at d/D of its period, and every period after; gateways likewise. */
export function schedule(devices: Reporter[], gateways: Reporter[], gatewayPeriodMs: number, seconds: number) {
  const events: { at: number; reporter: Reporter }[] = [];
  const spread = (reporters: Reporter[], period: number) =>
    reporters.forEach((reporter, i) => {
      for (let at = (i / reporters.length) * period; at < seconds * 1000; at += period) events.push({ at, reporter });
    });
  spread(devices, DEVICE_PERIOD_MS);
  spread(gateways, gatewayPeriodMs);
  return events.sort((a, b) => a.at - b.at);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Beats in flight at most in the paced run: a server slower than the offered rate has this many waiting, and the
 * beats due beyond them are counted as not sent, so a run ends within seconds of its time and its latency is
 * that of a bounded queue (about this many over the server's rate), not of an ever longer one.
 */
export const PACED_MAX_OUTSTANDING = 256;

/** Open loop: every beat at its time, whatever the server's latency (unless the server is behind: see above). */
export async function paced(baseUrl: string, devices: Reporter[], gateways: Reporter[], gatewayPeriodMs: number, seconds: number) {
  const run = new Run(baseUrl, PACED_MAX_OUTSTANDING);
  for (const event of schedule(devices, gateways, gatewayPeriodMs, seconds)) {
    const wait = event.at - (performance.now() - run.started);
    if (wait > 1) await sleep(wait);
    if (run.busy.has(event.reporter) || run.pending.size >= PACED_MAX_OUTSTANDING) run.skipped++;
    else void run.beat(event.reporter);
  }
  return run.finish(
    `paced: ${devices.length.toLocaleString("en")} devices every 30 s + ${gateways.length} gateways every ${(gatewayPeriodMs / 1000).toFixed(1)} s`,
  );
}

/** Closed loop: `inFlight` beats at a time for `seconds`, a gateway's report every so often to keep the paced run's mix. */
export async function flatOut(
  baseUrl: string,
  devices: Reporter[],
  gateways: Reporter[],
  gatewayShare: number,
  seconds: number,
  inFlight = 16,
) {
  const run = new Run(baseUrl, inFlight);
  const cursor = { device: 0, gateway: 0, sent: 0, gateways: 0 };
  /** The next reporter not mid-beat, from the gateways when they are behind their share; null when all are busy. */
  const next = (): Reporter | null => {
    const wantGateway = gateways.length > 0 && cursor.gateways < gatewayShare * (cursor.sent + 1);
    for (const kind of wantGateway ? (["gateway", "device"] as const) : (["device"] as const)) {
      const pool = kind === "gateway" ? gateways : devices;
      for (let tries = 0; tries < pool.length; tries++) {
        const reporter = pool[cursor[kind]++ % pool.length]!;
        if (run.busy.has(reporter)) continue;
        cursor.sent++;
        if (kind === "gateway") cursor.gateways++;
        return reporter;
      }
    }
    return null;
  };
  const until = run.started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const reporter = next();
      await (reporter ? run.beat(reporter) : sleep(1));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return run.finish(`flat out: ${inFlight} in flight, the same mix`);
}

/** Each reporter's first beat (a full report, as wgo's first), `inFlight` at a time. */
export async function firstBeats(baseUrl: string, reporters: Reporter[], inFlight = 16) {
  const run = new Run(baseUrl, inFlight);
  let next = 0;
  const worker = async () => {
    while (next < reporters.length) await run.beat(reporters[next++]!);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return run.finish("first beats: full reports");
}
