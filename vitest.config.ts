import { execFileSync } from "node:child_process";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { testSecrets } from "./test/test-secrets.ts";

/** test/fuzz: FUZZ_RUNS (runs per route and caller) and FUZZ_SEED reach the Worker as bindings. */
const fuzzSettings = () => ({ FUZZ_RUNS: process.env.FUZZ_RUNS ?? "", FUZZ_SEED: process.env.FUZZ_SEED ?? "" });

/**
 * The pure cores (routing, DNS, addresses, TOTP, the Prometheus renderer, webhook URL rules, queues) need no
 * runtime: they run in Node (project `unit`), without workerd's start-up per file (seconds each: a fresh workerd
 * loads the whole Worker before the file's first test). test/routing and test/dns also hold API suites
 * (`*-api.test.ts`, `policies-*.test.ts`), which run in workerd.
 */
const unitTests = [
  "test/access/rules.test.ts",
  "test/access/compile.property.test.ts",
  "test/access/configs.test.ts",
  "test/access/change-cost.test.ts",
  "test/routing/config-delta.test.ts",
  "test/routing/conflicts.test.ts",
  "test/routing/invariants.test.ts",
  "test/routing/ipam.test.ts",
  "test/routing/scale.test.ts",
  "test/routing/selection.test.ts",
  "test/routing/three-hop.test.ts",
  "test/routing/wg-quick.test.ts",
  "test/routing/wireguard-key.test.ts",
  "test/dns/conflicts.test.ts",
  "test/dns/corefile.test.ts",
  "test/dns/name-limits.test.ts",
  "test/dns/records.test.ts",
  "test/dns/txt.test.ts",
  "test/dns/zonefile.test.ts",
  "test/identity/totp.test.ts",
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
      // Three workers on the 2 cores, as before issue 25 (not re-measured with the e2e process beside them).
      // The e2e project runs one file at a time, and vitest runs such a project only after all the others:
      // `npm test` (scripts/test.mjs) therefore starts it in a second vitest process beside them.
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
            exclude: ["test/e2e/**", "test/wgo/**", "test/client-library/**", ...unitTests],
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
          // wgo, the command-line client and gateway agent (argument parsing, state files, error messages), in Node.
          // The Node projects run beside the e2e process and workerd (scripts/test.mjs): a 5 s default is tight there.
          test: { name: "wgo", include: ["test/wgo/**/*.test.ts"], environment: "node", testTimeout: 20_000 },
        },
        {
          // The typed API client in client/: its generated types match the committed OpenAPI document.
          test: { name: "client-library", include: ["test/client-library/**/*.test.ts"], environment: "node", testTimeout: 20_000 },
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
            // The Worker bundled and its D1 migrated once per run; each suite's server copies them.
            globalSetup: ["./test/e2e/support/worker-template.global.ts"],
          },
        },
        // `npm run bench` only (BENCH=1): load figures are measurements, never test assertions.
        ...(process.env.BENCH
          ? [
              {
                test: {
                  name: "bench",
                  include: ["bench/**/*.bench.ts"],
                  environment: "node",
                  testTimeout: 1_800_000,
                  hookTimeout: 180_000,
                },
              },
            ]
          : []),
      ],
    },
  };
});
