#!/usr/bin/env node
// `npm run dev`: local D1 migrated, development secrets in .dev.vars, `wrangler dev` on 127.0.0.1,
// and the development platform admin seeded through the bootstrap variables (DESIGN: Identity). One screen
// on the terminal, the console's URL last; wrangler's own output in a log file it names (issue 47).
import { spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createInterface } from "node:readline";

const PORT = process.env.PORT ?? "8787";
const DEV_ADMIN = { email: "admin@example.com", password: "dev-admin-password" };
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const wrangler = "node_modules/.bin/wrangler";
/** Where wrangler's output goes (it is hundreds of lines before the server is up); `WGO_DEV_LOG` moves it. */
const LOG = process.env.WGO_DEV_LOG ?? ".wrangler/dev.log";

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
  console.log("  wrote .dev.vars with fresh development secrets");
}

/**
 * wrangler's output goes to the log, not the terminal: its migration table alone is hundreds of lines (once per
 * migration), and its request lines would bury the URL. Errors it prints later are shown too (stderr), so a failing
 * Worker is not silent. On a failure, the last lines of the log say why.
 */
function logTo(stream, { echoErrors }) {
  createInterface({ input: stream }).on("line", (line) => {
    appendFileSync(LOG, `${line}\n`);
    if (echoErrors() && /\[ERROR\]|✘/.test(line)) process.stderr.write(`${line}\n`);
  });
}

function fail(what, code) {
  const tail = readFileSync(LOG, "utf8").trimEnd().split("\n").slice(-20).join("\n");
  console.error(`${what} (exit ${code}); the last lines of ${LOG}:\n${tail}`);
  process.exit(code || 1);
}

/** Runs a step with its output in the log; one line on the terminal says what it did. */
function step(what, argv) {
  appendFileSync(LOG, `\n$ ${argv.join(" ")}\n`);
  const result = spawnSync(argv[0], argv.slice(1), { env, encoding: "utf8" });
  appendFileSync(LOG, `${result.stdout ?? ""}${result.stderr ?? ""}`);
  if (result.status !== 0) fail(`${what} failed`, result.status ?? 1);
  return `${result.stdout ?? ""}${result.stderr ?? ""}`;
}

async function seedAdmin(base) {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      const response = await fetch(`${base}/api/v1/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(DEV_ADMIN),
      });
      if (response.status === 200 || response.status === 401) return { answered: true, signedIn: response.status === 200 };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { answered: false, signedIn: false };
}

mkdirSync(dirname(LOG), { recursive: true });
writeFileSync(LOG, "");
console.log(`npm run dev: the control plane on 127.0.0.1:${PORT}; wrangler's output goes to ${LOG}`);
ensureDevVars();
// dist/assets/: the docs page's reference UI, served by the Worker (wrangler.toml [assets]).
step("building dist/assets", [process.execPath, "scripts/build-assets.mjs"]);
const migrated = step("applying the D1 migrations", [wrangler, "d1", "migrations", "apply", "overlay", "--local"]);
// wrangler draws its table of the migrations to apply once per migration: count the names, not the rows.
const applied = new Set(migrated.match(/^│ \d{4}_\S+\.sql/gm) ?? []).size;
console.log(`  local D1: ${applied ? `${applied} migrations applied` : "migrations up to date"}; starting wrangler dev…`);

// DEV_CRON_TRIGGER: GET /__scheduled runs the cron (offline/drift detection, webhook retries) on demand
// (src/dev-cron-trigger.ts; wrangler's own trigger, /cdn-cgi/handler/scheduled, fails once the Worker has static assets).
// Its own process group, so a signal to this process (Ctrl-C, or `kill <pid>` of npm) stops wrangler and the
// workerd processes it started, not wrangler alone.
appendFileSync(LOG, `\n$ wrangler dev --ip 127.0.0.1 --port ${PORT}\n`);
const server = spawn(wrangler, ["dev", "--ip", "127.0.0.1", "--port", PORT, "--var", "DEV_CRON_TRIGGER:true"], {
  stdio: ["inherit", "pipe", "pipe"],
  env,
  detached: true,
});
let ready = false;
logTo(server.stdout, { echoErrors: () => ready });
logTo(server.stderr, { echoErrors: () => ready });
const stopServer = (signal) => {
  try {
    process.kill(-server.pid, signal);
  } catch {
    // already gone
  }
};
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    stopping = true;
    stopServer(signal);
  });
}
// npm does not pass a SIGTERM sent to it on to this script: when npm (our parent) is gone, stop too.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stopServer("SIGTERM"), 1000).unref();
server.on("exit", (code) => (ready || stopping ? process.exit(code ?? 0) : fail("wrangler dev stopped before it served", code ?? 1)));

const base = `http://127.0.0.1:${PORT}`;
const seeded = await seedAdmin(base);
if (!seeded.answered) {
  stopServer("SIGTERM");
  fail(`nothing answered on ${base} within a minute`, 1);
}
ready = true;
console.log(
  [
    "",
    `  API       ${base}/api/v1   (docs: ${base}/api/v1/docs)`,
    `  Mail      ${base}/api/v1/dev/mail?to=<address>   (development outbox)`,
    `  Cron      curl ${base}/__scheduled   (runs the minute's cron once)`,
    `  Log       ${LOG}   (wrangler's output; errors are shown here too)`,
    "  Stop      Ctrl-C",
    `  Admin     ${DEV_ADMIN.email} / ${DEV_ADMIN.password}${seeded.signedIn ? "" : "   (login failed: .dev.vars holds other bootstrap values?)"}`,
    `  Console   ${base}/`,
  ].join("\n"),
);
