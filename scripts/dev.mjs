#!/usr/bin/env node
// `npm run dev`: local D1 migrated, development secrets in .dev.vars, `wrangler dev` on 127.0.0.1,
// and the development platform admin seeded through the bootstrap variables (DESIGN: Identity).
import { spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

const PORT = process.env.PORT ?? "8787";
const DEV_ADMIN = { email: "admin@example.com", password: "dev-admin-password" };
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const wrangler = "node_modules/.bin/wrangler";

function ensureDevVars() {
  if (existsSync(".dev.vars") && readFileSync(".dev.vars", "utf8").includes("JWT_SIGNING_KEYS")) {
    // Older .dev.vars files predate the development mail outbox (GET /api/v1/dev/mail).
    if (!readFileSync(".dev.vars", "utf8").includes("MAIL_TRANSPORT")) appendFileSync(".dev.vars", 'MAIL_TRANSPORT="dev"\n');
    return;
  }
  const jwk = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
  const lines = [
    `JWT_SIGNING_KEYS='${JSON.stringify([{ ...jwk, kid: `dev-${Date.now()}` }])}'`,
    `TOKEN_SECRET="${randomBytes(32).toString("base64")}"`,
    `BOOTSTRAP_ADMIN_EMAIL="${DEV_ADMIN.email}"`,
    `BOOTSTRAP_ADMIN_PASSWORD="${DEV_ADMIN.password}"`,
    // Local mail lands in D1 and is read back with GET /api/v1/dev/mail (never set in production).
    'MAIL_TRANSPORT="dev"',
  ];
  writeFileSync(".dev.vars", `${lines.join("\n")}\n`, { mode: 0o600 });
  console.log("wrote .dev.vars with fresh development secrets");
}

/**
 * wrangler's output, less two misleading parts: its hint to trigger the cron at /cdn-cgi/handler/scheduled (which
 * answers 500 for a Worker with static assets; /__scheduled is ours) and the stack trace of its failed look-up of
 * workers.cloudflare.com (this machine is offline; wrangler falls back to a placeholder and says so).
 */
function passOn(from, to) {
  let skipping = false;
  createInterface({ input: from }).on("line", (line) => {
    if (/Scheduled Workers are not automatically triggered/.test(line)) {
      skipping = true;
      to.write(`  The cron (detection, deliveries): curl http://127.0.0.1:${PORT}/__scheduled\n`);
      return;
    }
    if (skipping && /For more details/.test(line)) {
      skipping = false;
      return;
    }
    if (/^Error: getaddrinfo ENOTFOUND workers\.cloudflare\.com|^\s+at .*(GetAddrInfoReqWrap|callbackTrampoline)/.test(line)) return;
    if (!skipping) to.write(`${line}\n`);
  });
}

async function seedAdmin(base) {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      const response = await fetch(`${base}/api/v1/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(DEV_ADMIN),
      });
      if (response.status === 200 || response.status === 401) return response.status === 200;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

ensureDevVars();
// dist/assets/: the docs page's reference UI, served by the Worker (wrangler.toml [assets]).
const assets = spawnSync(process.execPath, ["scripts/build-assets.mjs"], { stdio: "inherit" });
if (assets.status !== 0) process.exit(assets.status ?? 1);
const migrate = spawnSync(wrangler, ["d1", "migrations", "apply", "overlay", "--local"], { stdio: "inherit", env });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

// DEV_CRON_TRIGGER: GET /__scheduled runs the cron (offline/drift detection, webhook retries) on demand
// (src/dev-cron-trigger.ts; wrangler's own trigger fails once the Worker has static assets).
// Its own process group, so a signal to this process (Ctrl-C, or `kill <pid>` of npm) stops wrangler and the
// workerd processes it started, not wrangler alone.
const server = spawn(wrangler, ["dev", "--ip", "127.0.0.1", "--port", PORT, "--var", "DEV_CRON_TRIGGER:true"], {
  stdio: ["inherit", "pipe", "pipe"],
  env,
  detached: true,
});
passOn(server.stdout, process.stdout);
passOn(server.stderr, process.stderr);
const stopServer = (signal) => {
  try {
    process.kill(-server.pid, signal);
  } catch {
    // already gone
  }
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stopServer(signal));
// npm does not pass a SIGTERM sent to it on to this script: when npm (our parent) is gone, stop too.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stopServer("SIGTERM"), 1000).unref();
server.on("exit", (code) => process.exit(code ?? 0));

const base = `http://127.0.0.1:${PORT}`;
const seeded = await seedAdmin(base);
console.log(
  [
    "",
    `  Console   ${base}/`,
    `  API       ${base}/api/v1`,
    `  Docs      ${base}/api/v1/docs`,
    `  Admin     ${DEV_ADMIN.email} / ${DEV_ADMIN.password}${seeded ? "" : "  (login failed: .dev.vars holds other bootstrap values?)"}`,
    `  Mail      ${base}/api/v1/dev/mail?to=<address>  (development outbox)`,
    `  Cron      ${base}/__scheduled  (runs the minute's cron once)`,
    "  Stop      Ctrl-C",
    "",
  ].join("\n"),
);
