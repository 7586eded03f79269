#!/usr/bin/env node
// `npm test`: the whole suite, in two vitest runs one after the other: the workerd and Node suites, then the
// e2e projects (the browser, API and untimed data-plane suites three at a time, then the timed failovers and NAT
// labs one at a time). Run beside the workerd suites, the e2e files were no faster in all (1,238 s against
// 1,285 s) and their timed failovers failed on the loaded CPU, so they run alone, after. Each run keeps its
// own reporter and exit code, and the e2e run starts even when the first failed.
//
// With arguments (`npm test -- --project workers test/agents`), this is plain `vitest run <arguments>`.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const VITEST = join(ROOT, "node_modules/vitest/vitest.mjs");
const args = process.argv.slice(2);

/** Runs vitest with `vitestArgs`; every output line is prefixed with `label` when given. */
function vitest(vitestArgs, label) {
  const child = spawn(process.execPath, [VITEST, "run", ...vitestArgs], {
    cwd: ROOT,
    stdio: label ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  if (label) {
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      createInterface({ input: from }).on("line", (line) => to.write(`${label} ${line}\n`));
    }
  }
  // Ctrl-C or a CI cancel reaches both runs, so neither leaves wrangler or wireguard-go behind.
  const forward = (signal) => child.kill(signal);
  process.on("SIGINT", forward).on("SIGTERM", forward);
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

if (args.length > 0) {
  process.exit(await vitest(args));
}

// TEST_JSON_DIR=<dir>: each process also writes vitest's JSON report there (per-file durations, for docs/testing.md).
const json = (name) =>
  process.env.TEST_JSON_DIR
    ? ["--reporter=default", "--reporter=json", `--outputFile.json=${join(process.env.TEST_JSON_DIR, `${name}.json`)}`]
    : [];
const started = Date.now();
const others = await vitest(
  [
    "--project",
    "workers",
    "--project",
    "workers-alone",
    "--project",
    "unit",
    "--project",
    "wgo",
    "--project",
    "client-library",
    ...json("suites"),
  ],
  "[suites]",
);
// The web and untimed data-plane e2e suites three at a time (235 s against 296 s two at a time, every file green:
// docs/testing.md), then the timed ones alone (vitest.config.ts: projects e2e-web, e2e and e2e-timed).
const e2e = await vitest(
  ["--project", "e2e-web", "--project", "e2e", "--project", "e2e-timed", "--maxWorkers", "3", ...json("e2e")],
  "[e2e]",
);
const seconds = Math.round((Date.now() - started) / 1000);
console.log(
  `npm test: workers, unit, wgo and client-library ${others === 0 ? "passed" : "FAILED"}; e2e ${e2e === 0 ? "passed" : "FAILED"} (${seconds} s in all)`,
);
process.exit(others === 0 && e2e === 0 ? 0 : 1);
