// Issue 47: `npm run dev` fits one screen, the console's URL last, and wrangler's own output (its migration
// table once per migration: hundreds of lines) goes to the log file it names. Run as an operator runs it, in a
// scratch checkout (links to this one's code, its own .dev.vars and local D1), so the real checkout is untouched.
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { OutputTail } from "../support/command.ts";
import { freePort } from "../support/free-port.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SCREEN_LINES = 24;

describe("npm run dev", () => {
  const scratch = mkdtempSync(join(tmpdir(), "overlay-dev-"));
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      process.kill(-child.pid, "SIGTERM");
      await exited;
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it("prints one screen ending with the console's URL; wrangler's output is in the log it names", async () => {
    for (const entry of ["node_modules", "src", "migrations", "scripts", "dist", "package.json", "tsconfig.json"]) {
      symlinkSync(join(ROOT, entry), join(scratch, entry));
    }
    copyFileSync(join(ROOT, "wrangler.toml"), join(scratch, "wrangler.toml"));
    const port = await freePort();
    const stdout = new OutputTail();
    const stderr = new OutputTail();
    // detached: its own process group, which the test stops as Ctrl-C would (wrangler and workerd with it).
    child = spawn(process.execPath, ["scripts/dev.mjs"], {
      cwd: scratch,
      env: { ...process.env, PORT: String(port), WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child.stdout!.on("data", (chunk) => stdout.append(chunk));
    child.stderr!.on("data", (chunk) => stderr.append(chunk));
    const deadline = Date.now() + 170_000;
    while (!stdout.toString().includes("  Console   ") && child.exitCode === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const lines = stdout.toString().trimEnd().split("\n");
    expect(child.exitCode, `${stdout}${stderr}`).toBeNull();
    expect(lines.length, stdout.toString()).toBeLessThanOrEqual(SCREEN_LINES);
    expect(lines.at(-1)).toBe(`  Console   http://127.0.0.1:${port}/`);
    expect(lines[0]).toBe(`npm run dev: the control plane on 127.0.0.1:${port}; wrangler's output goes to .wrangler/dev.log`);
    expect(stdout.toString()).toMatch(/local D1: \d+ migrations applied/);
    expect(stdout.toString()).toContain("Admin     admin@example.com / dev-admin-password\n");
    expect(stderr.toString()).toBe("");
    // What stayed off the screen is in the log: every migration's table, wrangler dev's start.
    const log = readFileSync(join(scratch, ".wrangler/dev.log"), "utf8");
    expect(log).toContain("0000_init.sql");
    expect(log.split("\n").length).toBeGreaterThan(10 * SCREEN_LINES);
    // The URL it printed serves, and the development admin it seeded signs in.
    const login = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@example.com", password: "dev-admin-password" }),
    });
    expect(login.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/`, { redirect: "manual" })).status).toBeLessThan(400);
  });
});
