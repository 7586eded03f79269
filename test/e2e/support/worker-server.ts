// The real Worker for end-to-end tests: `wrangler dev` as a child process (the way `npm run dev` and
// operators run it) on a free port, with a fresh D1/Durable Object state directory per server.
//
// Chosen over wrangler's in-process `unstable_startWorker`: that API is marked unstable, would load
// wrangler, esbuild and miniflare into the vitest process, and a stuck workerd could not be killed
// apart from the tests. A child process group is killed whole and its output captured for errors.
//
// The Worker is bundled once (`wrangler deploy --dry-run`) and served with `--no-bundle`: `wrangler
// dev` otherwise watches src/ and reloads mid-test whenever someone saves a file.
import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { describeCommand, onAbruptExit, OutputTail, run, waitFor } from "./command.ts";
import { freePort } from "./free-port.ts";
import { muteNetworkEvents } from "./devtools.ts";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const WRANGLER = join(REPO_ROOT, "node_modules/wrangler/bin/wrangler.js");
// Config watching off too: the served Worker stays the snapshot taken at start (see above).
const WRANGLER_ENV = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", WRANGLER_CI_DISABLE_CONFIG_WATCHING: "true" };

export interface AdminCredentials {
  email: string;
  password: string;
}

export interface WorkerServer {
  /** Origin such as http://127.0.0.1:41234; the API lives under /api/v1. */
  baseUrl: string;
  /** The bootstrap admin: the first login with exactly these creates the platform admin. */
  admin: AdminCredentials;
  /** wrangler's output so far (for failure messages). */
  logs(): string;
  /** The wrangler process, leader of the process group that holds workerd too (bench/server-memory.ts sums it). */
  pid: number;
  /** wrangler's DevTools proxy to the Worker's isolate (bench/inspector.ts reads the JS heap through it). */
  inspectorPort: number;
  /** The bundled Worker it serves (bench/cpu-profile.ts names a profile's lines by the module comments in it). */
  bundle: string;
  /** Kills the wrangler process group and removes the state directory. Safe to call twice. */
  stop(): Promise<void>;
  /**
   * SIGKILLs the whole process group (no shutdown of any kind: what a crash or a lost machine does) and starts
   * the server again on the same port and state directory: durability tests. `pid` names the new process after.
   */
  killAndRestart(): Promise<void>;
}

export interface StartWorkerOptions {
  /** Overrides for [vars] (e.g. ROUTING_POLICY_MAX_HOPS), delivered with the secrets. */
  vars?: Record<string, string>;
  readyTimeoutMs?: number;
}

export async function startWorker(options: StartWorkerOptions = {}): Promise<WorkerServer> {
  const dir = await mkdtemp(join(tmpdir(), "overlay-e2e-"));
  let child: ChildProcess | undefined;
  const output = new OutputTail();
  const stop = async () => {
    if (child) await killGroup(child);
    child = undefined;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // The e2e project bundles and migrates once per run (worker-template.global.ts); each server copies the
    // migrated state, so it starts as empty as before. Without that setup (npm run bench), each server does it.
    const template = inject("e2eWorkerTemplate");
    if (template) await cp(join(template, "state"), join(dir, "state"), { recursive: true });
    else await prepareWorker(dir);
    const bundle = join(template ?? dir, "bundle", "index.js");

    const admin = { email: `admin-${randomBytes(3).toString("hex")}@e2e.test`, password: randomBytes(18).toString("base64url") };
    // An explicit --env-file makes wrangler skip the repo's .dev.vars (npm run dev's secrets), and
    // keeps the secrets out of `ps` (a --var would show them on the command line).
    const envFile = join(dir, "secrets.env");
    // DEV_CRON_TRIGGER: suites run the cron by hand with GET /__scheduled (src/dev-cron-trigger.ts).
    await writeFile(envFile, dotenv({ ...freshSecrets(admin), DEV_CRON_TRIGGER: "true", ...options.vars }), { mode: 0o600 });

    const port = await freePort();
    const inspectorPort = await freePort();
    const args = [
      // -c: with a script argument wrangler would look for a config beside the script, in /tmp.
      WRANGLER,
      "dev",
      bundle,
      "--no-bundle",
      "-c",
      join(REPO_ROOT, "wrangler.toml"),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      join(dir, "state"),
      "--env-file",
      envFile,
      "--show-interactive-dev-session=false",
    ];
    const baseUrl = `http://127.0.0.1:${port}`;
    const launch = async () => {
      // detached: its own process group, so stop() reaches workerd and esbuild too.
      const started = spawn(process.execPath, args, {
        cwd: REPO_ROOT,
        env: WRANGLER_ENV,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = started;
      started.stdout!.on("data", (chunk) => output.append(chunk));
      started.stderr!.on("data", (chunk) => output.append(chunk));
      // If the worker process is stopped before afterAll runs, do not leave workerd listening.
      const unregister = onAbruptExit(() => process.kill(-started.pid!, "SIGKILL"));
      started.once("exit", unregister);
      await waitFor(
        `GET ${baseUrl}/api/v1/openapi.json to answer 200`,
        async () => {
          if (started.exitCode !== null || started.signalCode !== null) {
            throw new Error(`wrangler dev exited (${started.exitCode ?? started.signalCode}) before it was ready:\n${output}`);
          }
          try {
            const response = await fetch(`${baseUrl}/api/v1/openapi.json`);
            await response.arrayBuffer(); // drain, so the connection is released
            return response.status === 200;
          } catch {
            return false; // not listening yet
          }
        },
        { timeoutMs: options.readyTimeoutMs ?? 60_000, intervalMs: 200, details: () => `wrangler output:\n${output}` },
      );
      return started;
    };
    let started = await launch();

    // Without this, wrangler's inspector proxy keeps four events per D1 query for a DevTools window that
    // never comes: hundreds of MiB over a benchmark (docs/memory.md).
    await muteNetworkEvents(inspectorPort);

    const server: WorkerServer = {
      baseUrl,
      admin,
      logs: () => String(output),
      pid: started.pid!,
      inspectorPort,
      bundle,
      stop,
      killAndRestart: async () => {
        const exited = new Promise((resolve) => started.once("exit", resolve));
        process.kill(-started.pid!, "SIGKILL");
        await exited;
        started = await launch();
        server.pid = started.pid!;
        await muteNetworkEvents(inspectorPort);
      },
    };
    return server;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The bundled Worker in `dir`/bundle and a migrated local D1 in `dir`/state: what every server starts from. */
export async function prepareWorker(dir: string, timeoutMs = 120_000): Promise<void> {
  await wrangler(["deploy", "--dry-run", "--outdir", join(dir, "bundle")], timeoutMs);
  await wrangler(["d1", "migrations", "apply", "overlay", "--local", "--persist-to", join(dir, "state")], timeoutMs);
}

async function wrangler(args: string[], timeoutMs: number): Promise<void> {
  const result = await run([process.execPath, WRANGLER, ...args], { timeoutMs, cwd: REPO_ROOT, env: WRANGLER_ENV });
  if (result.code !== 0) {
    throw new Error(`wrangler ${describeCommand(args)} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  }
}

/** Same shape as production secrets: current + previous Ed25519 signing keys, each with a kid. */
function freshSecrets(admin: AdminCredentials): Record<string, string> {
  const keys = ["e2e-current", "e2e-previous"].map((kid) => ({
    ...generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }),
    kid,
  }));
  return {
    JWT_SIGNING_KEYS: JSON.stringify(keys),
    TOKEN_SECRET: randomBytes(32).toString("base64url"),
    BOOTSTRAP_ADMIN_EMAIL: admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: admin.password,
  };
}

function dotenv(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => {
      // Single quotes are literal in dotenv, which JSON needs; they cannot hold ' or a newline.
      if (/['\n]/.test(value)) throw new Error(`${key}: value cannot go into a .env file`);
      return `${key}='${value}'\n`;
    })
    .join("");
}

async function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
  signalGroup("SIGKILL"); // workerd children can outlive the wrangler parent
}
