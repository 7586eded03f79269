import { execFileSync } from "node:child_process";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { testSecrets } from "./test/test-secrets.ts";

/** test/fuzz: FUZZ_RUNS (runs per route and caller) and FUZZ_SEED reach the Worker as bindings. */
const fuzzSettings = () => ({ FUZZ_RUNS: process.env.FUZZ_RUNS ?? "", FUZZ_SEED: process.env.FUZZ_SEED ?? "" });

/**
 * The pure cores (routing, DNS, addresses, the Prometheus renderer, webhook URL rules, queues) need no
 * runtime: they run in Node (project `unit`), without workerd's start-up and D1 migrations per file.
 */
const unitTests = [
  "test/access/**/*.test.ts",
  "test/routing/**/*.test.ts",
  "test/dns/**/*.test.ts",
  "test/metrics/prometheus-text.test.ts",
  "test/perf/wrk-scripts.test.ts",
  "test/metrics/writer-queue.test.ts",
  "test/notifications/webhook-url.test.ts",
  "test/durable-objects/group-commit.test.ts",
  "test/console/node-sync.test.ts",
];

/** test/notifications: webhooks reach the Node receiver on 127.0.0.1 (globalSetup), and time out fast. */
const notificationSettings = () => ({ WEBHOOK_ALLOW_HTTP_LOOPBACK: "true", WEBHOOK_TIMEOUT_MS: "1000" });

export default defineConfig(async () => {
  // The Worker's static assets (dist/assets/): the workers tests' ASSETS binding and the e2e harness's
  // `wrangler dev` both serve that directory.
  execFileSync(process.execPath, ["scripts/build-assets.mjs"], { stdio: "inherit" });
  const migrations = await readD1Migrations("./migrations");
  return {
    test: {
      // One more worker than the 2 cores: an e2e file spends most of its time waiting (pings, failovers, a
      // 30 s offline threshold) while holding a worker, and the workers project can use the CPU meanwhile.
      maxWorkers: 3,
      projects: [
        {
          // The Worker itself, in workerd: real D1, real Durable Objects, `exports.default.fetch`.
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              // MAIL_TRANSPORT=dev: identity tests read mailed tokens from the D1 outbox (test/identity).
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  ...testSecrets(),
                  MAIL_TRANSPORT: "dev",
                  ...fuzzSettings(),
                  ...notificationSettings(),
                },
              },
            }),
          ],
          test: {
            name: "workers",
            include: ["test/**/*.test.ts"],
            exclude: ["test/e2e/**", "test/cli/**", "test/client-lib/**", ...unitTests],
            setupFiles: ["./test/setup.ts"],
            // Sign-ins hash passwords (scrypt): on a busy 2-core machine a test with several users passes 5 s.
            testTimeout: 20_000,
            // A real HTTP receiver in Node for webhook deliveries; tests get its URL with inject().
            globalSetup: ["./test/notifications/support/webhook-receiver.global.ts"],
          },
        },
        {
          // The pure cores, in Node: no workerd, no D1.
          // Property tests over generated networks take seconds on a busy 2-core machine: the workers project's timeout.
          test: { name: "unit", include: unitTests, environment: "node", testTimeout: 20_000 },
        },
        {
          // The command-line client's own logic (argument parsing, state files, error messages), in Node.
          test: { name: "cli", include: ["test/cli/**/*.test.ts"], environment: "node" },
        },
        {
          // The typed API client in client/: its generated types match the committed OpenAPI document.
          test: { name: "client", include: ["test/client-lib/**/*.test.ts"], environment: "node" },
        },
        {
          // Real data plane and DNS servers against `wrangler dev`, in Node.
          test: {
            name: "e2e",
            include: ["test/e2e/**/*.test.ts"],
            environment: "node",
            testTimeout: 180_000,
            hookTimeout: 180_000,
            fileParallelism: false,
          },
        },
        // `npm run bench` only (BENCH=1): load figures are measurements, never test assertions.
        ...(process.env.BENCH
          ? [
              {
                test: { name: "bench", include: ["bench/**/*.bench.ts"], environment: "node", testTimeout: 1_800_000, hookTimeout: 180_000 },
              },
            ]
          : []),
      ],
    },
  };
});
