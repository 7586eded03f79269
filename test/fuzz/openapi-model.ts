import { get } from "../helpers/api";

/** The subset of JSON Schema (OpenAPI 3.1) that the zod-openapi generator emits for this API. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  minItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  example?: unknown;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: JsonSchema;
}

/** One method + path of the document, with everything a request generator needs. */
export interface Operation {
  method: string;
  /** OpenAPI template under the base path, e.g. "/networks/{id}". */
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body?: JsonSchema;
  secured: boolean;
  statuses: string[];
}

export const BASE = "/api/v1";

export interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema: JsonSchema }> };
        security?: unknown[];
        responses: Record<string, unknown>;
      }
    >
  >;
  components: { schemas: Record<string, JsonSchema> };
}

/** The document exactly as a client would fetch it: through the Worker. */
export async function fetchDocument(): Promise<OpenApiDoc> {
  const response = await get<OpenApiDoc>("/openapi.json");
  if (response.status !== 200) throw new Error(`openapi.json answered ${response.status}`);
  return response.body;
}

/** Replaces $ref with the component (recursively, cycle-safe by depth). */
export function resolve(doc: OpenApiDoc, schema: JsonSchema | undefined, depth = 0): JsonSchema | undefined {
  if (!schema || depth > 12) return schema;
  if (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    return resolve(doc, doc.components.schemas[name], depth + 1);
  }
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, resolve(doc, value, depth + 1)!]));
  }
  if (schema.items) out.items = resolve(doc, schema.items, depth + 1);
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    if (schema[key]) out[key] = schema[key]!.map((entry) => resolve(doc, entry, depth + 1)!);
  }
  return out;
}

export function operations(doc: OpenApiDoc): Operation[] {
  return Object.entries(doc.paths).flatMap(([fullPath, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const parameters = op.parameters ?? [];
      return {
        method: method.toUpperCase(),
        path: fullPath.slice(BASE.length),
        pathParams: parameters.filter((p) => p.in === "path"),
        queryParams: parameters.filter((p) => p.in === "query"),
        body: resolve(doc, op.requestBody?.content?.["application/json"]?.schema),
        secured: Array.isArray(op.security) && op.security.length > 0,
        statuses: Object.keys(op.responses),
      };
    }),
  );
}

/** A stable label for test names and failure reports. */
export const label = (op: Pick<Operation, "method" | "path">) => `${op.method} ${op.path}`;
