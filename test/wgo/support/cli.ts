// The CLI is plain .mjs without declaration files (no build step, and tsc here does not read
// JavaScript), so tests load its modules untyped through a computed specifier.
import { mkdtempSync, rmSync } from "node:fs";
import { EventEmitter } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";

const load = (name: string): Promise<any> => import(/* @vite-ignore */ `../../../cli/${name}`);

export const cli = {
  main: await load("main.mjs"),
  netnsHere: await load("netns-here.mjs"),
  args: await load("args.mjs"),
  errors: await load("errors.mjs"),
  keys: await load("keys.mjs"),
  cidr: await load("cidr.mjs"),
  wgQuick: await load("wg-quick-text.mjs"),
  system: await load("system.mjs"),
  iface: await load("interface.mjs"),
  http: await load("http.mjs"),
  configDelta: await load("config-delta.mjs"),
  peerReport: await load("peer-report.mjs"),
  resolver: await load("resolver.mjs"),
  pause: await load("gateway/pause.mjs"),
  prober: await load("gateway/prober.mjs"),
  probeJudge: await load("gateway/probe-judge.mjs"),
  domains: await load("gateway/domains.mjs"),
  accessFilter: await load("access-filter.mjs"),
  listenPort: await load("listen-port.mjs"),
  localEndpoints: await load("local-endpoints.mjs"),
  failures: await load("failures.mjs"),
  deviceNames: await load("device-names.mjs"),
  files: await load("files.mjs"),
  version: await load("version.mjs"),
  versionCommand: await load("commands/version.mjs"),
};

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout lines parsed as JSON (for --json runs). */
  json: any[];
}

export interface RunOptions {
  env?: Record<string, string>;
  stdin?: string;
  now?: () => number;
  signals?: EventEmitter;
  createSystem?: (options: { netns?: string }) => unknown;
}

function sink() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * Runs `wgo ...args` in-process with captured output; env is exactly what is given (no WGO_* leaks in),
 * except that the host's resolver files are moved to a temp directory, removed after the run, unless the
 * test names its own: a unit test never writes /etc/netns.
 */
export async function runWgo(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const stdout = sink();
  const stderr = sink();
  const stdin = Readable.from(options.stdin === undefined ? [] : [options.stdin]);
  const etc = mkdtempSync(join(tmpdir(), "wgo-etc-"));
  let code: number;
  try {
    code = await cli.main.main(args, {
      stdout: stdout.stream,
      stderr: stderr.stream,
      stdin,
      env: { WGO_NETNS_ETC: join(etc, "netns"), WGO_RESOLVCONF_ORDER: join(etc, "interface-order"), ...options.env },
      now: options.now,
      signals: options.signals ?? new EventEmitter(),
      createSystem: options.createSystem,
    });
  } finally {
    rmSync(etc, { recursive: true, force: true });
  }
  const json = stdout
    .text()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
  return { code, stdout: stdout.text(), stderr: stderr.text(), json };
}

/** A fresh state directory (its parent exists, it does not, so wgo creates it). */
export function tempHome(): { home: string; remove: () => void } {
  const parent = mkdtempSync(join(tmpdir(), "wgo-unit-"));
  return { home: join(parent, "home"), remove: () => rmSync(parent, { recursive: true, force: true }) };
}
