import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createSocket } from "node:dgram";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";

/**
 * Real DNS tooling for end-to-end checks of rendered zones: BIND's named-checkzone as the
 * validator and Knot DNS (knotd) as an authoritative server, queried with kdig.
 * Everything runs as child processes in a throw-away directory and on a free loopback port.
 */

const run = promisify(execFile);
const TOOLS = ["named-checkzone", "knotd", "kdig"] as const;

/** knotd lives in /usr/sbin, which is not on every user's PATH. */
export function findBinary(name: string): string | null {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/sbin", "/usr/local/sbin"];
  for (const dir of dirs) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** The binaries this harness needs that are not installed (empty when it can run). */
export function missingDnsTools(): string[] {
  return TOOLS.filter((tool) => findBinary(tool) === null);
}

function binary(name: (typeof TOOLS)[number]): string {
  const path = findBinary(name);
  if (!path) throw new Error(`${name} is not installed (apt-get install bind9-utils knot knot-dnsutils)`);
  return path;
}

export interface ZoneCheck {
  ok: boolean;
  output: string;
}

/**
 * named-checkzone with the strict settings of a BIND primary: bad host names (check-names),
 * NS problems and integrity errors fail the check instead of only warning.
 */
export async function checkZone(domain: string, zoneText: string): Promise<ZoneCheck> {
  const dir = await mkdtemp(join(tmpdir(), "zone-check-"));
  try {
    const file = join(dir, `${domain}.zone`);
    await writeFile(file, zoneText);
    const args = ["-k", "fail", "-n", "fail", "-i", "full", domain, file];
    try {
      const { stdout, stderr } = await run(binary("named-checkzone"), args);
      return { ok: /^OK$/m.test(stdout), output: stdout + stderr };
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      return { ok: false, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A port free for both TCP and UDP on 127.0.0.1, since knotd listens on both. */
async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer().once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = createSocket("udp4").once("error", () => resolve(false));
      socket.bind(port, "127.0.0.1", () => socket.close(() => resolve(true)));
    });
    if (port > 0 && udpFree) return port;
  }
  throw new Error("No free port for knotd on 127.0.0.1");
}

function knotConfig(dir: string, port: number, domain: string): string {
  return [
    "server:",
    `    rundir: "${join(dir, "run")}"`,
    `    listen: 127.0.0.1@${port}`,
    "database:",
    `    storage: "${join(dir, "db")}"`,
    "log:",
    "  - target: stderr",
    "    any: info",
    "zone:",
    `  - domain: ${domain}`,
    `    storage: "${dir}"`,
    `    file: "${domain}.zone"`,
    // Serve the file exactly as rendered: never write it back, keep no journal, check strictly.
    "    zonefile-sync: -1",
    "    zonefile-load: whole",
    "    journal-content: none",
    "    semantic-checks: on",
    "",
  ].join("\n");
}

export interface KnotServer {
  port: number;
  /** Answers for `name` ("@", a name relative to the zone, or absolute with a trailing dot), one per line of kdig +short. */
  query(name: string, type: string): Promise<string[]>;
  /** knotd's log so far, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

async function kdig(port: number, fqdn: string, type: string): Promise<string[]> {
  const args = [`@127.0.0.1`, "-p", String(port), fqdn, type, "+short", "+timeout=2", "+retry=0"];
  const { stdout } = await run(binary("kdig"), args);
  return stdout.split("\n").filter((line) => line.trim() !== "");
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Starts knotd in the foreground serving `zoneText` as `domain`, and resolves once it answers
 * the zone's SOA query. On any failure the process is stopped and the directory removed.
 */
export async function startKnot(zoneText: string, domain: string, readyTimeoutMs = 15_000): Promise<KnotServer> {
  const dir = await mkdtemp(join(tmpdir(), "knot-e2e-"));
  let child: ChildProcess | undefined;
  let output = "";
  const cleanUp = async () => {
    if (child) await stopProcess(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await mkdir(join(dir, "run"));
    await mkdir(join(dir, "db"));
    await writeFile(join(dir, `${domain}.zone`), zoneText);
    const port = await freePort();
    await writeFile(join(dir, "knot.conf"), knotConfig(dir, port, domain));
    child = spawn(binary("knotd"), ["-c", join(dir, "knot.conf")], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    const absolute = (name: string) => (name === "@" ? `${domain}.` : name.endsWith(".") ? name : `${name}.${domain}.`);
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`knotd exited with ${child.exitCode}:\n${output}`);
      const soa = await kdig(port, `${domain}.`, "SOA").catch(() => []);
      if (soa.length > 0) break;
      if (Date.now() > deadline) throw new Error(`knotd did not serve ${domain} within ${readyTimeoutMs} ms:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      port,
      query: (name, type) => kdig(port, absolute(name), type),
      log: () => output,
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
