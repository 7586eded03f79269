// Which suites run where (vitest.config.ts's projects; docs/testing.md "Time" says what each choice saved).

/**
 * The pure cores (routing, DNS, addresses, TOTP, the Prometheus renderer, webhook URL rules, queues) need no
 * runtime: they run in Node (project `unit`), without workerd and the Worker it loads. test/routing and test/dns also hold API suites
 * (`*-api.test.ts`, `policies-*.test.ts`), which run in workerd.
 */
export const unitTests = [
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
  "test/api/object-refusal.test.ts",
];

/** The e2e suites that hold no host state (no namespaces, no WireGuard, no fixed ports): project e2e-web. */
export const webEndToEnd = [
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

/**
 * Workers files share one workerd per vitest worker (project `workers`, isolate: false): a file's rows stay for the
 * next, so a suite makes unique data and never counts a whole table. These need an empty platform or change the
 * platform's settings (which every later file would then run under), and run in project `workers-alone`, a fresh
 * workerd each.
 */
export const workersAlone = [
  // The admin pages' empty states ("No gateways yet"), and the settings form.
  "test/console/admin.test.ts",
  // 55 networks and 200 groups: a crowd that pushes other files' rows off the lists' first pages.
  "test/console/crowded-lists.test.ts",
  // PUT /admin/settings: the hop limit, gateway eligibility, token lifetimes, sign-up mode, the offline threshold.
  "test/admin/settings.test.ts",
  "test/audit/ops-atomic-audit.test.ts",
  "test/perf/agent-report-writes.test.ts",
  // The fuzzers send every route random bodies as a platform admin too: a PUT /admin/settings among them passes.
  "test/fuzz/identity.test.ts",
  "test/fuzz/networks.test.ts",
  "test/fuzz/rest.test.ts",
];

/**
 * The data-plane suites that time a failover or a path change, or build a NAT lab whose timings they report: alone on
 * the machine, one at a time (project `e2e-timed`), after every other e2e suite. The rest of test/e2e holds no
 * timed bound, and each lab has its own namespaces (random names), so they run beside each other and the web suites (project `e2e`, three at a time).
 */
export const timedEndToEnd = [
  "test/e2e/gateway/pool-failover.test.ts",
  "test/e2e/gateway/pool-no-flap.test.ts",
  "test/e2e/gateway/pool-path-change.test.ts",
  "test/e2e/access/changes-in-a-row.test.ts",
  "test/e2e/nat/**/*.test.ts",
];
