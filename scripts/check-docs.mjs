#!/usr/bin/env node
// `npm run check:docs`: README.md and docs/*.md may only name things that exist: repository files, API routes
// (against the committed OpenAPI document), npm scripts and environment variables. Docs drift when code moves;
// this makes a moved file or a renamed route fail CI instead of misleading the next reader.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const read = (path) => readFileSync(join(ROOT, path), "utf8");
const docs = [
  "README.md",
  "client/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

const scripts = new Set(Object.keys(JSON.parse(read("package.json")).scripts));
const openapi = JSON.parse(read("client/openapi.json"));
/** `/nodes/{id}/config` → a pattern any parameter spelling matches (`:id`, `{id}`, `<id>`, a literal id). */
const routePatterns = Object.keys(openapi.paths).map((path) => {
  const stem = path.replace(/^\/api\/v1/, "");
  return new RegExp(`^${stem.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^/]+?\\?\}/g, "[^/]+")}$`);
});
// Variables are defined in code, config or CI; a doc may name one only if one of these mentions it.
const variableSources = ["src", "cli", "scripts", "test", "bench", ".ci"]
  .flatMap((dir) => listFiles(dir))
  .concat(["wrangler.toml", "vitest.config.ts", "package.json"]);
const variableText = variableSources.map((file) => read(file)).join("\n");

function listFiles(dir) {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "results" ? [] : listFiles(path);
    return /\.(m?[jt]sx?|toml|json|sh|sql)$/.test(entry.name) || dir === ".ci" ? [path] : [];
  });
}

// A path from the repository root, or one written relative to src/, test/ or cli/ as the docs often do
// (`routes/managed-client/managed-client.handlers.ts`, `security/api6-business-flows.test.ts`): in backticks, or any root path.
const FILE =
  /(?<![\w./-])((?:src|cli|test|bench|scripts|client|docs|migrations|\.ci)\/[\w./-]*[\w/])|`([\w.-]+\/[\w./-]*\.(?:m?[jt]sx?|md|sql|json|toml|sh))`/g;
// Docs of the network domain name files relative to src/services/networks/, src/objects/network/ or src/core/; console.md to src/console/, client/README.md to client/.
const FILE_BASES = ["", "src/", "test/", "cli/", "src/services/networks/", "src/objects/network/", "src/core/", "src/console/", "client/"];
const ROUTE = /\b(GET|POST|PUT|PATCH|DELETE)\s+`?(\/[\w/:{}<>.,-]*)/g;
/** `/auth/mfa/{enroll,activate}` names two routes; `{id}` is a parameter. */
const expand = (route) => {
  const match = route.match(/\{([^{}]*,[^{}]*)\}/);
  return match ? match[1].split(",").flatMap((part) => expand(route.replace(match[0], part))) : [route];
};
const SCRIPT = /npm run ([\w:-]+)/g;
const VARIABLE = /`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=[^`]*)?`/g;

/** Paths written with placeholders or globs, and build outputs, are descriptions, not files to look up. */
const isPattern = (path) => /[<>*…{}]|\.\.\.|\/dist(\/|$)|\/results(\/|$)|^[A-Z]+\//.test(path);
/** A route as docs write it (relative to /api/v1, any parameter spelling) is one of the document's paths. */
const isApiRoute = (path) =>
  routePatterns.some((pattern) =>
    pattern.test(
      path
        .replace(/^\/api\/v1/, "")
        .replace(/[?#].*$/, "")
        .replace(/\/$/, ""),
    ),
  );

// Served outside the API's document: the docs page, the document itself, wgo's install script and package
// (src/routes/wgo/), the development cron trigger and D1 meter.
const NOT_API = /^(\/api\/v1)?\/(docs|openapi\.json|install\.sh|wgo\/\S+)$|^\/__(scheduled|d1-meter)$|^\/cdn-cgi\//;

const problems = [];
for (const doc of docs) {
  const text = read(doc);
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    const where = `${doc}:${index + 1}`;
    for (const [, rooted, relative] of line.matchAll(FILE)) {
      const clean = (rooted ?? relative).replace(/[.:]+$/, "").replace(/#.*$/, "");
      const found = FILE_BASES.some((base) => existsSync(join(ROOT, base, clean)));
      if (!isPattern(clean) && !found) problems.push(`${where}: names ${clean}, which does not exist`);
    }
    // docs/console.md describes the console's own pages (/, /networks/:id ...), which are not API routes.
    if (doc !== "docs/console.md") {
      for (const [, , path] of line.matchAll(ROUTE)) {
        const route = path.replace(/[`.,;:)]+$/, "");
        if (route.includes("..")) continue; // an attack spelled out (a dot-segment path), not a route
        if (expand(route).some((one) => !isApiRoute(one) && !NOT_API.test(one)))
          problems.push(`${where}: names the route ${route}, which the API does not have`);
      }
    }
    for (const [, script] of line.matchAll(SCRIPT)) {
      if (!scripts.has(script)) problems.push(`${where}: names npm run ${script}, which package.json does not have`);
    }
    for (const [, variable] of line.matchAll(VARIABLE)) {
      if (!variableText.includes(variable)) problems.push(`${where}: names ${variable}, which no code, config or CI script uses`);
    }
  });
}

// Code comments name files too (`hot/hot-store.ts`, `write-runner.ts`): each must exist, relative to the file's own
// folder or one above it, to a root folder, or (a bare name) somewhere in the file's own room (its top folder under
// src/, or cli/). JSON and SQL names count only with a folder (`agent.json` is a file wgo writes on a gateway).
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
const COMMENT_PATH = /(?<![\w./@-])((?:[\w.-]+\/)*[\w-]+\.(?:tsx?|mjs|md|sql|json))(?![\w/-])/g;
/** Files outside the repository that comments may name: the shared design contract and specification. */
const OUTSIDE = new Set(["DESIGN.md", "STYLE.md", "TOOLCHAIN.md", "api-spec.md"]);
const codeFiles = ["src", "cli"].flatMap((dir) => listFiles(dir)).filter((file) => /\.(tsx?|mjs)$/.test(file));
const roomOf = (file) => file.match(/^(src\/(?:objects\/)?[^/]+|cli)/)?.[1] ?? file;
const basenames = new Map();
for (const file of codeFiles) {
  const name = file.split("/").at(-1);
  basenames.set(name, [...(basenames.get(name) ?? []), file]);
}
for (const file of codeFiles) {
  const folders = file
    .split("/")
    .slice(0, -1)
    .map((_, i, parts) => parts.slice(0, i + 1).join("/"));
  for (const comment of read(file).match(COMMENT) ?? []) {
    for (const [, path] of comment.matchAll(COMMENT_PATH)) {
      if (OUTSIDE.has(path) || (!path.includes("/") && /\.(json|sql)$/.test(path))) continue;
      const bare = !path.includes("/") && (basenames.get(path) ?? []).some((other) => other.startsWith(`${roomOf(file)}/`));
      const found = bare || [...folders, "", "src", "test", "cli", "docs"].some((base) => existsSync(join(ROOT, base, path)));
      if (!found) problems.push(`${file}: a comment names ${path}, which does not exist`);
    }
  }
}

if (problems.length) {
  console.error(`${problems.length} reference(s) in the docs name nothing that exists:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(
  `docs: ${docs.length} files checked; every file, route, npm script and variable they name exists; so does every file the comments of ${codeFiles.length} code files name`,
);
