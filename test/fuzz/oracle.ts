import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { ERROR_STATUS } from "../../src/lib/errors";
import type { World } from "./fixtures";
import type { Caller, FuzzRequest } from "./requests";
import { changedTables, snapshot, type Snapshot } from "./snapshot";

/** The data as the last request left it: one snapshot per request instead of one before and one after. */
let baseline: Snapshot | undefined;
/** Call after changing data outside sendAndCheck (fixtures, a replacement admin). */
export const forgetBaseline = () => {
  baseline = undefined;
};

/** Field names and texts that must never reach a client, whatever went wrong. */
const LEAKS = /"(passwordHash|keyHash|credentialHash|tokenHash|secretCiphertext|codeHash)"\s*:|SQLITE_|D1_ERROR|\bat .+\.(ts|js):\d+/;

function credential(world: World, caller: Caller): string[] {
  switch (caller) {
    case "admin":
      return [`Bearer ${world.admin.token}`];
    case "user":
      return [`Bearer ${world.user.token}`];
    case "device":
      return [`Bearer ${world.deviceToken}`];
    case "manager":
      return [`Bearer ${world.managerToken}`];
    case "daemon":
      return [`Bearer ${world.daemonToken}`];
    case "scim":
      return [`Bearer ${world.scimToken}`];
    case "garbage":
      return ["Bearer eyJhbGciOiJub25lIn0.e30."];
    case "basic":
      return [`Basic ${btoa("admin:admin")}`];
    // Two Authorization headers arrive as one comma-joined value.
    case "doubled":
      return [`Bearer ${world.admin.token}`, `Bearer ${world.user.token}`];
    case "empty-bearer":
      return ["Bearer "];
    case "truncated":
      return [`Bearer ${world.admin.token.slice(0, -3)}`];
    case "none":
      return [];
  }
}

export interface Outcome {
  status: number;
  text: string;
}

/**
 * Sends one generated request through the Worker and checks the contract that holds for every route:
 * no 5xx, X-Request-Id, no internals in the body, errors in the one envelope with a known code that
 * matches the status, and a rejected request (4xx) leaves every D1 table exactly as it was.
 */
export async function sendAndCheck(world: World, request: FuzzRequest): Promise<Outcome> {
  const headers = new Headers();
  for (const value of credential(world, request.caller)) headers.append("Authorization", value);
  for (const [name, value] of request.headers) headers.append(name, value);
  const withBody = request.method !== "GET" && request.method !== "HEAD";
  const before = baseline ?? (await snapshot());
  // The Worker's own fetch handler with a context we can wait on: work it defers with waitUntil (audit
  // trail, notification events) lands before the snapshot, not in the middle of the next request.
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`http://api.test/api/v1${request.path}`, {
      method: request.method,
      headers,
      body: withBody ? request.body : undefined,
    }),
    env,
    ctx,
  );
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  const where = `${request.method} ${request.path.slice(0, 200)} as ${request.caller} → ${response.status} ${text.slice(0, 300)}`;

  const after = await snapshot();
  baseline = after;
  if (response.status >= 500) throw new Error(`5xx: ${where}`);
  if (!response.headers.get("x-request-id")) throw new Error(`no X-Request-Id: ${where}`);
  if (LEAKS.test(text)) throw new Error(`internal detail in the response: ${where}`);
  if (response.status >= 400) {
    if (request.path.startsWith("/scim/v2/")) checkScimError(response, text, where);
    else checkEnvelope(response, text, where);
    const changed = changedTables(before, after);
    if (changed.length > 0) throw new Error(`rejected request changed ${changed.join(", ")}: ${where}`);
  }
  return { status: response.status, text };
}

/** The SCIM routes refuse in SCIM's error body (RFC 7644 §3.12), and only in it. */
function checkScimError(response: Response, text: string, where: string) {
  if (!response.headers.get("content-type")?.startsWith("application/scim+json"))
    throw new Error(`SCIM error is not application/scim+json: ${where}`);
  const body = JSON.parse(text) as Record<string, unknown>;
  const extra = Object.keys(body).filter((key) => !["schemas", "status", "scimType", "detail"].includes(key));
  if (extra.length > 0) throw new Error(`SCIM error carries ${extra.join(", ")}: ${where}`);
  if (JSON.stringify(body.schemas) !== '["urn:ietf:params:scim:api:messages:2.0:Error"]') throw new Error(`SCIM error schemas: ${where}`);
  if (body.status !== String(response.status)) throw new Error(`SCIM error status ${body.status}: ${where}`);
  if (typeof body.detail !== "string" || !body.detail) throw new Error(`SCIM error without detail: ${where}`);
}

function checkEnvelope(response: Response, text: string, where: string) {
  if (!response.headers.get("content-type")?.startsWith("application/json")) throw new Error(`error is not JSON: ${where}`);
  const body = JSON.parse(text) as { error?: { code?: string; message?: unknown; fields?: unknown } };
  const keys = Object.keys(body);
  const error = body.error;
  if (keys.length !== 1 || !error || typeof error.message !== "string" || !error.message) throw new Error(`not the envelope: ${where}`);
  const code = error.code as keyof typeof ERROR_STATUS;
  if (!(code in ERROR_STATUS)) throw new Error(`unknown error code: ${where}`);
  if (ERROR_STATUS[code] !== response.status) throw new Error(`code ${code} travels with ${ERROR_STATUS[code]}: ${where}`);
  const extra = Object.keys(error).filter((key) => !["code", "message", "fields"].includes(key));
  if (extra.length > 0) throw new Error(`envelope carries ${extra.join(", ")}: ${where}`);
  if (error.fields !== undefined) {
    const valid =
      Array.isArray(error.fields) &&
      error.fields.every((f: { path?: unknown; message?: unknown }) => typeof f.path === "string" && typeof f.message === "string");
    if (!valid) throw new Error(`fields[] malformed: ${where}`);
  }
  if (code === "VALIDATION_ERROR" && !Array.isArray(error.fields)) throw new Error(`VALIDATION_ERROR without fields[]: ${where}`);
}
