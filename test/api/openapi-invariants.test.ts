import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../../src/lib/errors";
import { get } from "../helpers/api";

/**
 * What `npm run lint:openapi` (Redocly recommended, Spectral spectral:oas) and generated clients rely on,
 * asserted on the LIVE document, so a new route cannot regress it even before the linters run.
 */
type Json = Record<string, any>;
type Operation = Json & { method: string; path: string };

const METHODS = new Set(["get", "put", "post", "patch", "delete", "head", "options"]);

async function liveDocument(): Promise<Json> {
  const response = await get("/openapi.json");
  expect(response.status).toBe(200);
  return response.body;
}

const operationsOf = (doc: Json): Operation[] =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({ ...(op as Json), method, path })),
  );

const label = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;
const resolve = (doc: Json, node: Json | undefined): Json | undefined =>
  node?.$ref
    ? resolve(
        doc,
        (node.$ref as string)
          .split("/")
          .slice(1)
          .reduce((at: Json, key) => at[key], doc),
      )
    : node;

describe("the live OpenAPI document's lint invariants", () => {
  it("gives every operation a unique camelCase operationId, a summary, a description and its security", async () => {
    const doc = await liveDocument();
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(100);
    const schemes = new Set(Object.keys(doc.components.securitySchemes));
    const problems: string[] = [];
    for (const op of operations) {
      if (!/^[a-z][A-Za-z0-9]+$/.test(op.operationId ?? "")) problems.push(`${label(op)}: operationId ${op.operationId}`);
      if (!op.summary?.trim()) problems.push(`${label(op)}: no summary`);
      if (!op.description?.trim()) problems.push(`${label(op)}: no description`);
      if (!Array.isArray(op.security)) problems.push(`${label(op)}: no security (public routes say security: [])`);
      for (const requirement of op.security ?? []) {
        for (const scheme of Object.keys(requirement)) if (!schemes.has(scheme)) problems.push(`${label(op)}: undefined scheme ${scheme}`);
      }
    }
    expect(problems).toEqual([]);
    const ids = operations.map((op) => op.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it("defines every tag it uses, each with a description, and uses every tag it defines", async () => {
    const doc = await liveDocument();
    const defined = (doc.tags as Json[]).map((tag) => tag.name);
    expect((doc.tags as Json[]).filter((tag) => !tag.description?.trim())).toEqual([]);
    const used = new Set(operationsOf(doc).flatMap((op) => op.tags ?? []));
    expect(
      operationsOf(doc)
        .filter((op) => !op.tags?.length)
        .map(label),
    ).toEqual([]);
    expect([...used].filter((tag) => !defined.includes(tag))).toEqual([]);
    expect(defined.filter((tag) => !used.has(tag))).toEqual([]);
    expect(doc.servers?.length).toBeGreaterThan(0);
  });

  it("names, for every error response, an envelope whose code enum holds exactly the codes of that status", async () => {
    const doc = await liveDocument();
    const problems: string[] = [];
    for (const op of operationsOf(doc)) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        // The SCIM routes answer SCIM's error body instead (routes/scim/scim-errors.ts), and only it.
        if (op.path.startsWith("/api/v1/scim/v2/")) {
          const media = Object.keys(response.content ?? {});
          const scimRef = response.content?.["application/scim+json"]?.schema?.$ref;
          if (media.join() !== "application/scim+json" || scimRef !== "#/components/schemas/ScimError")
            problems.push(`${label(op)} ${status}: ${media} ${scimRef}`);
          continue;
        }
        const ref = response.content?.["application/json"]?.schema?.$ref;
        if (ref !== `#/components/schemas/Error${status}`) {
          problems.push(`${label(op)} ${status}: schema ${ref}`);
          continue;
        }
        const codes = resolve(doc, { $ref: ref })?.properties.error.properties.code.enum;
        const expected = Object.entries(ERROR_STATUS)
          .filter(([, s]) => s === Number(status))
          .map(([code]) => code);
        if (JSON.stringify(codes) !== JSON.stringify(expected)) problems.push(`${label(op)} ${status}: codes ${codes}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("documents the headers: X-Request-Id everywhere, Retry-After on 429, ETag with If-None-Match on 304", async () => {
    const doc = await liveDocument();
    const problems: string[] = [];
    for (const op of operationsOf(doc)) {
      const params = (op.parameters ?? []).map((p: Json) => resolve(doc, p)) as Json[];
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const headers = response.headers ?? {};
        if (!headers["X-Request-Id"]) problems.push(`${label(op)} ${status}: no X-Request-Id`);
        if (status === "429" && !headers["Retry-After"]) problems.push(`${label(op)} 429: no Retry-After`);
        if (status === "304") {
          if (!headers.ETag) problems.push(`${label(op)} 304: no ETag`);
          if (!op.responses["200"]?.headers?.ETag) problems.push(`${label(op)} 200: no ETag beside the 304`);
          if (!params.some((p) => p.in === "header" && p.name.toLowerCase() === "if-none-match"))
            problems.push(`${label(op)}: no If-None-Match`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("lists 422 wherever a path id is length-limited, and leaves no default on a request body field", async () => {
    const doc = await liveDocument();
    const problems: string[] = [];
    for (const op of operationsOf(doc)) {
      const limited = (op.parameters ?? []).some((p: Json) => p.in === "path" && p.schema?.maxLength !== undefined);
      // The SCIM routes answer a bad parameter with SCIM's 400 invalidValue (routes/scim/scim-errors.ts), never 422.
      const refusal = op.path.startsWith("/api/v1/scim/v2/") ? "400" : "422";
      if (limited && !op.responses[refusal]) problems.push(`${label(op)}: path id limited, no ${refusal}`);
      const seen = new Set<Json>();
      const visit = (schema: Json | undefined, at: string) => {
        const resolved = resolve(doc, schema);
        if (!resolved || seen.has(resolved)) return;
        seen.add(resolved);
        for (const [name, property] of Object.entries((resolved.properties ?? {}) as Json)) {
          if ("default" in property) problems.push(`${label(op)} body ${at}${name}: default (generators read it as always present)`);
          visit(property, `${at}${name}.`);
        }
        for (const child of [resolved.items, ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) visit(child, at);
      };
      for (const media of Object.values((op.requestBody?.content ?? {}) as Json)) visit(media.schema, "");
    }
    expect(problems).toEqual([]);
  });

  it("matches the wire: an unauthenticated call answers a code its status's schema names, with the documented headers", async () => {
    const doc = await liveDocument();
    const response = await get("/networks");
    expect(response.status).toBe(401);
    expect(doc.components.schemas.Error401.properties.error.properties.code.enum).toContain(response.body.error.code);
    expect(response.headers.get("X-Request-Id")).toMatch(/^req_/);
    expect(response.headers.get("WWW-Authenticate")).toBe('Bearer realm="api"');
    expect(doc.paths["/api/v1/networks"].get.responses["401"].headers).toHaveProperty("WWW-Authenticate");
  });
});
