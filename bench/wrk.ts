// Drives one endpoint with wrk at fixed concurrency and reads back throughput and latency percentiles.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface WrkTarget {
  label: string;
  method: "GET" | "POST" | "PATCH" | "PUT";
  path: string;
  token?: string;
  /** A static JSON body, or a Lua expression building one per request (`n` counts requests per thread, `t` is the thread). */
  body?: string;
  luaBody?: string;
  /** With `luaBody`: a Lua expression for each request's path (same `n` and `t`); `path` otherwise. */
  luaPath?: string;
  /** Connections kept open (WRK.connections unless given): the concurrency the figures are at. */
  connections?: number;
  /** The run's length (WRK.seconds unless given). */
  seconds?: number;
  accept?: string;
  /** Requests cycle through these (path, bearer token) pairs instead of `path`/`token`: many devices. */
  rotate?: { path: string; token: string }[];
  /**
   * With `rotate`: each request's body is `prefix .. seq .. suffix` (one for all, or one per entry: a gateway
   * agent's report names its own node), where seq starts at the device's
   * entry in `seqs` and goes up by one per request to that device (a delta peer report's base). Each
   * wrk thread takes its own share of the devices, so a device's requests go in order. Answers that
   * ask for a resync are counted (WrkResult.resyncs): a base that did not match wrote nothing.
   */
  sequenced?: { prefix: string | string[]; suffix: string | string[]; seqs: number[] };
}

export interface WrkResult {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  /** With `sequenced`: answers that asked for a resync. */
  resyncs?: number;
}

export const WRK = { threads: 2, connections: 16, seconds: Number(process.env.BENCH_SECONDS ?? 5) };

function luaScript(target: WrkTarget): string {
  const headers = [
    `wrk.headers["Content-Type"] = "application/json"`,
    target.token ? `wrk.headers["Authorization"] = "Bearer ${target.token}"` : "",
    target.accept ? `wrk.headers["Accept"] = "${target.accept}"` : "",
  ].join("\n");
  const staticBody = target.body ? `wrk.body = [[${target.body}]]` : "";
  if (target.rotate && target.sequenced) return `${headers}\n${sequencedRotation(target)}\n`;
  if (target.rotate) return `${headers}\n${staticBody}\n${rotation(target)}\n`;
  const perRequest = target.luaBody
    ? `local counter = 0
local threads = 0
function setup(thread) threads = threads + 1; thread:set("t", threads) end
function init(args) t = wrk.thread:get("t") or 0 end
request = function()
  counter = counter + 1
  local n = counter
  return wrk.format(nil, ${target.luaPath ?? "nil"}, nil, ${target.luaBody})
end`
    : "";
  return `wrk.method = "${target.method}"\n${headers}\n${staticBody}\n${perRequest}\n`;
}

/** The Lua that counts the answers asking for a resync, summed over wrk's threads (`resyncs: N`, parsed below). */
const RESYNC_COUNTING = `response = function(status, headers, body)
  if string.find(body, '"resync":true', 1, true) then resyncs = resyncs + 1 end
end
done = function(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + (thread:get("resyncs") or 0) end
  io.write(string.format("resyncs: %d\\n", total))
end`;

/** Each request goes to the next (path, token) of the list, wrapping around. */
function rotation(target: WrkTarget): string {
  const entries = target.rotate!.map((entry) => `{ "${entry.path}", "Bearer ${entry.token}" }`).join(",\n  ");
  return `local targets = {
  ${entries}
}
local counter = 0
request = function()
  counter = counter + 1
  local pick = targets[(counter % #targets) + 1]
  wrk.headers["Authorization"] = pick[2]
  return wrk.format("${target.method}", pick[1])
end`;
}

/** Lua long strings hold any JSON (no escaping); each thread keeps the next base of its own devices. */
function sequencedRotation(target: WrkTarget): string {
  const { prefix, suffix, seqs } = target.sequenced!;
  const part = (text: string | string[], i: number) => `[==[${Array.isArray(text) ? text[i] : text}]==]`;
  const entries = target
    .rotate!.map((entry, i) => `{ "${entry.path}", "Bearer ${entry.token}", ${part(prefix, i)}, ${part(suffix, i)}, ${seqs[i]} }`)
    .join(",\n  ");
  return `local all = {
  ${entries}
}
local threads = {}
local made = 0
function setup(thread) made = made + 1; thread:set("t", made); table.insert(threads, thread) end
local mine = {}
local counter = 0
resyncs = 0
function init(args)
  -- thread:set("t", n) in setup made t a global of this thread's state
  for i, entry in ipairs(all) do
    if (i - 1) % ${WRK.threads} == t - 1 then table.insert(mine, entry) end
  end
end
-- wrk calls request() once on its first thread to check the script before any connection: that call
-- must not use up a device's base, or the device is one ahead of the server and every beat resyncs.
local checking = nil
request = function()
  if checking == nil then checking = (t == 1) end
  if checking then
    checking = false
    return wrk.format("POST", mine[1][1], nil, mine[1][3] .. mine[1][5] .. mine[1][4])
  end
  counter = counter + 1
  local pick = mine[((counter - 1) % #mine) + 1]
  local base = pick[5]
  pick[5] = base + 1
  wrk.headers["Authorization"] = pick[2]
  return wrk.format("POST", pick[1], nil, pick[3] .. base .. pick[4])
end
${RESYNC_COUNTING}`;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const toMs = (text: string) => {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : Number.NaN;
};

export function parseWrk(label: string, output: string): WrkResult {
  // wrk reports a script it cannot load and then runs its default GET of the URL: that would be measured
  // as if it were the target (it once made /health pass for heartbeats). Refuse it.
  const scriptError = /\.lua:\d+:.*$/m.exec(output);
  if (scriptError) throw new Error(`wrk could not load the script for ${label}: ${scriptError[0]}`);
  const perSecond = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const total = /(\d+) requests in/.exec(output);
  const p50 = /^\s+50%\s+(\S+)/m.exec(output);
  const p99 = /^\s+99%\s+(\S+)/m.exec(output);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  const resyncs = /^resyncs: (\d+)$/m.exec(output);
  if (!perSecond || !p50 || !p99 || !total) throw new Error(`could not read wrk output for ${label}:\n${output}`);
  return {
    label,
    requestsPerSecond: Number(perSecond[1]),
    p50Ms: toMs(p50[1]!),
    p99Ms: toMs(p99[1]!),
    requests: Number(total[1]),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    ...(resyncs ? { resyncs: Number(resyncs[1]) } : {}),
  };
}

export async function runWrk(baseUrl: string, target: WrkTarget, scratchDir: string): Promise<WrkResult> {
  const script = join(scratchDir, `${target.label.replace(/\W+/g, "-")}.lua`);
  await writeFile(script, luaScript(target));
  const connections = target.connections ?? WRK.connections;
  const args = [
    "-t",
    String(Math.min(WRK.threads, connections)),
    "-c",
    String(connections),
    "-d",
    `${target.seconds ?? WRK.seconds}s`,
    "--timeout",
    "10s",
    "--latency",
    "-s",
    script,
    `${baseUrl}${target.path}`,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.stderr.on("data", (chunk) => (text += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
  });
  return parseWrk(target.label, output);
}
