/**
 * A typed client for the control plane's HTTP API.
 *
 * Request and response types come from `schema.d.ts`, generated from `openapi.json`: the document the
 * Worker's own route schemas produce (GET /api/v1/openapi.json). `npm run client:generate` refreshes
 * both; a test fails while either is stale, so the types cannot drift from the routes.
 *
 *   const api = createApiClient({ baseUrl: "https://wg.example.com", token });
 *   const { data, error } = await api.GET("/api/v1/nodes/{id}", { params: { path: { id } } });
 *
 * Every call answers `{ data, error, response }`: `data` is the typed success body, `error` the typed
 * error envelope `{ error: { code, message, fields? } }`. Nothing throws on a 4xx/5xx answer.
 * This module is plain TypeScript over `fetch` (no test framework), so it works in Node, browsers and Workers.
 */
import createClient, { type Client, defaultPathSerializer, type PathSerializer } from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, paths };
export type Schemas = components["schemas"];
/** One schema of the API by name, e.g. `Schema<"Network">`. */
export type Schema<Name extends keyof Schemas> = Schemas[Name];
/** The error envelope every refused request answers with: one schema per status (Error404, …), each naming its codes. */
export type ErrorEnvelope = Schemas[Extract<keyof Schemas, `Error${number}`>];
export type ApiClient = Client<paths>;

export interface ApiClientOptions {
  /** The origin serving the API, e.g. `https://wg.example.com`; paths carry the `/api/v1` prefix. */
  baseUrl: string;
  /** Where requests go; defaults to the global `fetch` (give the Worker's own `fetch` to call it in-process). */
  fetch?: (request: Request) => Promise<Response>;
  /** An access token (user), device token or agent token, sent as `Authorization: Bearer …` on every call. */
  token?: string;
  /** Extra headers sent on every call. */
  headers?: Record<string, string>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchFn = options.fetch;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    // Wrapped so the global fetch is looked up per call (tests and polyfills may replace it).
    fetch: fetchFn ? (request) => fetchFn(request) : (request) => globalThis.fetch(request),
    headers: { ...(options.token ? bearer(options.token) : {}), ...options.headers },
    pathSerializer: dotSafePathSerializer,
  });
}

/**
 * A path parameter of "." or ".." would survive encodeURIComponent and then be removed by URL parsing
 * (`/networks/{id}/enrolment-keys` with id ".." is `/enrolment-keys`, another route); its percent-encoded
 * forms (%2E) count as dot segments too. No id is a dot segment, so such a value is sent encoded twice
 * (%252E): the API reads the literal "%2E%2E" as the id it was given, and answers 404 for it.
 */
const dotSafePathSerializer: PathSerializer = (pathname, pathParams) => {
  const params = Object.fromEntries(
    Object.entries(pathParams ?? {}).map(([name, value]) => [name, value === "." || value === ".." ? value.replace(/\./g, "%2E") : value]),
  );
  return defaultPathSerializer(pathname, params);
};

/** The path parameter of every `/{id}` route: `api.GET("/api/v1/nodes/{id}", byId(node.id))`. */
export const byId = (id: string) => ({ params: { path: { id } } });

/** The Authorization header for one call made with a different token than the client's. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * Options reading a text artifact as a string: the Corefile, the zone file, and a node's config as
 * wg-quick text (`GET /api/v1/nodes/{id}/config` answers JSON unless asked for text/plain).
 *
 *   const { data: zone } = await api.GET("/api/v1/networks/{id}/dns/zonefile", { params, ...asText });
 */
export const asText = { parseAs: "text", headers: { Accept: "text/plain" } } as const;

/**
 * The JSON form of an answer documented as JSON or text (a node's config): narrows the type, and
 * throws if the server answered text (ask for JSON by not sending `asText`).
 */
export function json<T>(data: T | string | undefined): T {
  if (typeof data !== "object" || data === null) throw new TypeError(`expected a JSON body, got ${typeof data}`);
  return data;
}

/** The header asking for an artifact only if it changed since the ETag you hold. */
export const ifNoneMatch = (etag: string) => ({ "If-None-Match": etag });

/** A 304 answer to `If-None-Match`: what you hold is current. openapi-fetch reports it as `error`, but it is not one. */
export const isNotModified = (result: { response: Response }) => result.response.status === 304;

/** The ETag of an answer, to send back with `ifNoneMatch` next time. */
export const etagOf = (result: { response: Response }) => result.response.headers.get("ETag");

/** The error code of a refused call (`not_found`, `forbidden`, `VALIDATION_ERROR`, …), or undefined. */
export function errorCode(result: { error?: unknown }): string | undefined {
  const envelope = result.error as Partial<ErrorEnvelope> | undefined;
  return typeof envelope === "object" && envelope !== null ? envelope.error?.code : undefined;
}
