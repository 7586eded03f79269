/**
 * The import rules of docs/architecture.md, checked by `npm run check:imports` (and in CI).
 * Layers, top to bottom: entry (index, app, durable-objects, scheduled) → routes → schemas (the API
 * vocabulary route folders share) → middleware → services → lib → db. Imports run downward only; no
 * circles, type-only imports included. The network's writers are Durable Object classes that live in
 * services (src/services/networks/writer/): their methods are the domain's writes, and routes and services
 * type their stubs with them, which they could not do if the classes sat in src/durable-objects. src/index.ts
 * exports them for the runtime.
 */
const layer = (name) => `^src/${name}(/|\\.ts$)`;
const above = {
  db: ["lib", "services", "middleware", "schemas", "routes", "durable-objects", "scheduled", "app", "index"],
  lib: ["services", "middleware", "schemas", "routes", "durable-objects", "scheduled", "app", "index"],
  services: ["middleware", "schemas", "routes", "durable-objects", "scheduled", "app", "index"],
  middleware: ["schemas", "routes", "durable-objects", "scheduled", "app", "index"],
  schemas: ["routes", "durable-objects", "scheduled", "app", "index"],
  routes: ["durable-objects", "scheduled", "app", "index"],
};

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "No import circles, type-only ones included.", from: {}, to: { circular: true } },
    ...Object.entries(above).map(([from, higher]) => ({
      name: `${from}-imports-downward-only`,
      severity: "error",
      comment: `src/${from} may not import ${higher.join(", ")}: imports run routes → services → db, one way.`,
      from: { path: layer(from) },
      to: { path: higher.map(layer) },
    })),
    {
      name: "route-folders-stand-alone",
      severity: "error",
      comment: "A route folder imports no other route folder: shared schemas live in schemas/, shared guards in middleware/.",
      from: { path: "^src/routes/([^/]+)/" },
      to: { path: "^src/routes/([^/]+)/", pathNot: "^src/routes/$1/" },
    },
    {
      name: "console-is-an-api-client",
      severity: "error",
      comment: "The console (src/console) reaches data only through the API (client/): no routes, services, middleware or db.",
      from: { path: "^src/console/" },
      to: { path: ["routes", "services", "middleware", "db", "schemas", "durable-objects"].map(layer) },
    },
    {
      name: "cli-is-a-node-program",
      severity: "error",
      comment: "wgo (cli/) runs on operators' machines with Node alone: it shares no code with the Worker.",
      from: { path: "^cli/" },
      to: { path: "^src/" },
    },
    {
      name: "worker-does-not-import-cli",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^cli/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^(node_modules|test|bench)/" },
  },
};
