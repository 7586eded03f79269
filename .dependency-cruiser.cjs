/**
 * The import rules of docs/architecture.md, checked by `npm run check:imports` (and in CI).
 * Layers, top to bottom: entry (index, app, scheduled) → routes → schemas (the API vocabulary route folders
 * share) → middleware → services (the Worker's domain) and objects (what runs inside a Durable Object, one folder
 * each) → wire (the machine messages' schemas and types: heartbeats, agents' reports) → core (the pure cores: routing, DNS, addresses, the access-policy compile, pool health) → lib → db.
 * Imports run downward only; no circles, type-only imports included. Services and objects may import each other
 * one way per file, never in a circle: the Worker reaches an object only through its folder's client.ts (its one
 * door), and an object uses the Worker's shared services (audit, notifications, settings, authorisation).
 * src/index.ts alone imports the object classes, to export them for the runtime.
 */
const layer = (name) => `^src/${name}(/|\\.ts$)`;
const above = {
  db: ["lib", "core", "wire", "services", "objects", "middleware", "schemas", "routes", "scheduled", "app", "index"],
  lib: ["core", "wire", "services", "objects", "middleware", "schemas", "routes", "scheduled", "app", "index"],
  core: ["wire", "services", "objects", "middleware", "schemas", "routes", "scheduled", "app", "index"],
  wire: ["services", "objects", "middleware", "schemas", "routes", "scheduled", "app", "index", "console"],
  services: ["middleware", "schemas", "routes", "scheduled", "app", "index"],
  objects: ["middleware", "schemas", "routes", "scheduled", "app", "index", "console"],
  middleware: ["schemas", "routes", "scheduled", "app", "index"],
  schemas: ["routes", "scheduled", "app", "index"],
  routes: ["scheduled", "app", "index"],
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
      name: "an-object-has-one-door",
      severity: "error",
      comment:
        "Outside a Durable Object's folder (src/objects/<object>/), code reaches the object only through its client.ts; src/index.ts alone imports the classes to export them.",
      from: { path: "^src/", pathNot: ["^src/objects/", "^src/index\\.ts$"] },
      to: { path: "^src/objects/[^/]+/", pathNot: "^src/objects/[^/]+/client\\.ts$" },
    },
    {
      name: "objects-meet-through-clients",
      severity: "error",
      comment:
        "One object reaches another (a network's writer its group's) only through the other's client.ts. The group's writer runs its writes on the network writer's run loop and commit, the one writer machinery (docs/architecture.md).",
      from: { path: "^src/objects/([^/]+)/" },
      to: {
        path: "^src/objects/",
        pathNot: ["^src/objects/$1/", "^src/objects/[^/]+/client\\.ts$", "^src/objects/network/(runner/write-runner|commit)\\.ts$"],
      },
    },
    {
      name: "core-is-pure",
      severity: "error",
      comment: "The pure cores (src/core) read no storage: from db they take types only.",
      from: { path: "^src/core/" },
      to: { path: "^src/db/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "routes-take-only-types-from-db",
      severity: "error",
      comment: "Routes take row types from db, never a value: enums and schema constants they present come from services or schemas.",
      from: { path: "^src/routes/" },
      to: { path: "^src/db/", dependencyTypesNot: ["type-only"] },
    },
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
      to: { path: ["routes", "services", "objects", "core", "wire", "middleware", "db", "schemas"].map(layer) },
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
