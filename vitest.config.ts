import { execFileSync } from "node:child_process";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { testSecrets } from "./test/test-secrets.ts";

/** test/fuzz: FUZZ_RUNS (runs per route and caller) and FUZZ_SEED, and the revocation races' RACE_ROUNDS, reach the Worker as bindings. */
const fuzzSettings = () => ({
  FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
  FUZZ_SEED: process.env.FUZZ_SEED ?? "",
  RACE_ROUNDS: process.env.RACE_ROUNDS ?? "",
});

/**
 * The pure cores (routing, DNS, addresses, TOTP, the Prometheus renderer, webhook URL rules, queues) need no
 * runtime: they run in Node (project `unit`), without workerd's start-up per file (seconds each: a fresh workerd
 * loads the whole Worker before the file's first test). test/routing and test/dns also hold API suites
 * (`*-api.test.ts`, `policies-*.test.ts`), which run in workerd.
 */
const unitTests = [
  "test/access/rules.test.ts",
  "test/access/compile.property.test.ts",
  "test/access/sources.property.test.ts",
  "test/access/configs.test.ts",
  "test/access/change-cost.test.ts",
  "test/routing/config-delta.test.ts",
  "test/routing/filter-patch.test.ts",
  "test/routing/conflicts.test.ts",
  "test/routing/invariants.test.ts",
  "test/routing/ipam.test.ts",
  "test/routing/scale.test.ts",
  "test/routing/selection.test.ts",
  "test/routing/standby-links.test.ts",
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
  "test/perf/fleet-bench.test.ts",
  "test/metrics/writer-queue.test.ts",
  "test/notifications/webhook-url.test.ts",
  "test/identity/session-cache-generations.test.ts",
  "test/identity/verified-tokens.test.ts",
  "test/console/node-sync.test.ts",
];

/** The Worker's dependencies as it imports them (tsconfig's jsxImportSource included), and the tests' own. */
const bundledDependencies = [
  ...["hono", "hono/cookie", "hono/html", "hono/http-exception", "hono/route", "hono/utils/http-status"],
  ...["hono/jsx", "hono/jsx/jsx-runtime", "hono/jsx/jsx-dev-runtime", "@hono/zod-openapi", "zod"],
  ...["drizzle-orm", "drizzle-orm/sqlite-core", "drizzle-orm/batch", "drizzle-orm/d1", "jose", "ipaddr.js", "oauth4webapi"],
  // test/fuzz imports it into the Worker's runtime too.
  "fast-check",
];

/** The e2e suites that hold no host state (no namespaces, no WireGuard, no fixed ports): project e2e-web. */
const webEndToEnd = [
  "test/e2e/console/**/*.test.ts",
  "test/e2e/docs/**/*.test.ts",
  "test/e2e/oauth/**/*.test.ts",
  "test/e2e/client-library/**/*.test.ts",
  "test/e2e/smoke/worker-server.test.ts",
  "test/e2e/smoke/body-limit.test.ts",
  "test/e2e/smoke/write-durability.test.ts",
  "test/e2e/smoke/heartbeat-durability.test.ts",
  "test/e2e/dns/api-zone.test.ts",
];

/** Both e2e projects: generous timeouts, and the Worker bundled and its D1 migrated once per run. */
const endToEnd = {
  environment: "node",
  testTimeout: 180_000,
  hookTimeout: 180_000,
  globalSetup: ["./test/e2e/support/worker-template.global.ts"],
};

/** test/notifications: webhooks reach the Node receiver on 127.0.0.1 (globalSetup), and time out fast. */
const notificationSettings = () => ({ WEBHOOK_ALLOW_HTTP_LOOPBACK: "true", WEBHOOK_TIMEOUT_MS: "1000" });

export default defineConfig(async () => {
  // The Worker's static assets (dist/assets/): the workers tests' ASSETS binding and the e2e harness's
  // `wrangler dev` both serve that directory.
  execFileSync(process.execPath, ["scripts/build-assets.mjs"], { stdio: "inherit" });
  const migrations = await readD1Migrations("./migrations");
  return {
    test: {
      // Three workers on the 2 cores: a workers file waits on its writer and D1 as much as it computes.
      // `npm test` (scripts/test.mjs) runs the e2e projects in a second vitest process, after these.
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
                  // A sign-in costs one scrypt hash: at the default 2^14 a test with a few users spends seconds
                  // in them. test/identity/password-hash.test.ts checks both costs; the e2e servers keep 2^14.
                  PASSWORD_SCRYPT_LOG_N: "10",
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
            // Each file starts a fresh workerd that imports the Worker module by module; pre-bundled, each of
            // these packages is one module instead of hundreds (6 trivial files: setup 153-207 s against 233-325 s
            // summed, 35-37 s of CPU against 46 s, at load ~12).
            deps: { optimizer: { ssr: { enabled: true, include: bundledDependencies } } },
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
          // The Node projects run beside workerd's three workers: a 5 s default is tight there.
          test: { name: "wgo", include: ["test/wgo/**/*.test.ts"], environment: "node", testTimeout: 20_000 },
        },
        {
          // The typed API client in client/: its generated types match the committed OpenAPI document.
          test: { name: "client-library", include: ["test/client-library/**/*.test.ts"], environment: "node", testTimeout: 20_000 },
        },
        {
          // The browser and API e2e suites against `wrangler dev`, in Node: each has its own server on a free
          // port and no host state, so two run at once (scripts/test.mjs passes --maxWorkers 2).
          test: { name: "e2e-web", include: webEndToEnd, ...endToEnd },
        },
        {
          // Real data plane and DNS servers against `wrangler dev`, in Node. One file at a time: they share the
          // host's network namespaces and nftables, and their failovers are timed. vitest runs a one-worker
          // project after the others, so these start when the web suites are done.
          test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], exclude: webEndToEnd, ...endToEnd, fileParallelism: false },
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
