import { execFileSync } from "node:child_process";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { timedEndToEnd, unitTests, webEndToEnd, workersAlone } from "./test/suites.ts";
import { testSecrets } from "./test/test-secrets.ts";

/** test/fuzz: FUZZ_RUNS (runs per route and caller) and FUZZ_SEED, and the revocation races' RACE_ROUNDS, reach the Worker as bindings. */
const fuzzSettings = () => ({
  FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
  FUZZ_SEED: process.env.FUZZ_SEED ?? "",
  RACE_ROUNDS: process.env.RACE_ROUNDS ?? "",
});

/** The Worker's dependencies as it imports them (tsconfig's jsxImportSource included), and the tests' own. */
const bundledDependencies = [
  ...["hono", "hono/cookie", "hono/html", "hono/http-exception", "hono/route", "hono/utils/http-status"],
  ...["hono/jsx", "hono/jsx/jsx-runtime", "hono/jsx/jsx-dev-runtime", "@hono/zod-openapi", "zod"],
  ...["drizzle-orm", "drizzle-orm/sqlite-core", "drizzle-orm/batch", "drizzle-orm/d1", "jose", "ipaddr.js", "oauth4webapi"],
  ...["scim2-parse-filter", "scim-patch"],
  // test/fuzz imports it into the Worker's runtime too.
  "fast-check",
];

/** Every e2e project: generous timeouts, and the Worker bundled and its D1 migrated once per run. */
const endToEnd = {
  environment: "node",
  testTimeout: 180_000,
  hookTimeout: 180_000,
  globalSetup: ["./test/e2e/support/worker-template.global.ts"],
};

/** test/notifications: webhooks reach the Node receiver on 127.0.0.1 (globalSetup), and time out fast. */
const notificationSettings = () => ({ WEBHOOK_ALLOW_HTTP_LOOPBACK: "true", WEBHOOK_TIMEOUT_MS: "1000" });

/** A project of Worker suites in workerd: real D1, real Durable Objects, `exports.default.fetch`. */
function workersProject(
  migrations: Awaited<ReturnType<typeof readD1Migrations>>,
  name: string,
  files: { include: string[]; exclude?: string[] },
  isolate: boolean,
) {
  return {
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
      name,
      ...files,
      setupFiles: ["./test/setup.ts"],
      // isolate: false keeps one workerd, and the Worker it loaded, for every file a vitest worker runs: a fresh
      // one per file cost ~6 s of start-up, 130 times (docs/testing.md "Time"). Files then share D1 and the
      // objects' storage (test/suites.ts says what that asks of a suite).
      isolate,
      // Pre-bundled, each of these packages is one module for workerd to load instead of hundreds.
      deps: { optimizer: { ssr: { enabled: true, include: bundledDependencies } } },
      // Sign-ins hash passwords (scrypt): on a busy 2-core machine a test with several users passes 5 s.
      testTimeout: 20_000,
      // A real HTTP receiver in Node for webhook deliveries; tests get its URL with inject().
      globalSetup: ["./test/notifications/support/webhook-receiver.global.ts"],
    },
  };
}

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
        workersProject(
          migrations,
          "workers",
          {
            include: ["test/**/*.test.ts"],
            exclude: ["test/e2e/**", "test/wgo/**", "test/client-library/**", ...unitTests, ...workersAlone],
          },
          false,
        ),
        workersProject(migrations, "workers-alone", { include: workersAlone }, true),
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
          // port and no host state. With project e2e, three at a time (scripts/test.mjs passes --maxWorkers 3).
          test: { name: "e2e-web", include: webEndToEnd, ...endToEnd },
        },
        {
          // Real data plane and DNS servers against `wrangler dev`, in Node, that time nothing: each lab's
          // namespaces are its own, so they run beside the web suites.
          test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], exclude: [...webEndToEnd, ...timedEndToEnd], ...endToEnd },
        },
        {
          // The timed failovers, path changes and NAT labs: one file at a time, after the rest (group 1), alone
          // on the machine.
          test: { name: "e2e-timed", include: timedEndToEnd, ...endToEnd, fileParallelism: false, sequence: { groupOrder: 1 } },
        },
        // `npm run bench` only (BENCH=1): load figures are measurements, never test assertions.
        ...(process.env.BENCH
          ? [
              {
                test: {
                  name: "bench",
                  include: ["bench/**/*.bench.ts"],
                  environment: "node",
                  // One file at a time: side by side, each figure carried the other benches' load (issue 42).
                  fileParallelism: false,
                  setupFiles: ["./bench/alone.setup.ts"],
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
