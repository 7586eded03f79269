// A SCIM client for the workers suites: a token a platform admin made, requests in SCIM's media type through the
// real Worker, and the answers' SCIM error bodies.
import { expect } from "vitest";
import { type ApiResponse, call, post } from "../helpers/api";
import { type Session, signInAdmin, unique } from "../helpers/factories";

export const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";

export interface ScimClient {
  name: string;
  token: string;
  get(path: string): Promise<ApiResponse>;
  post(path: string, body: unknown): Promise<ApiResponse>;
  put(path: string, body: unknown): Promise<ApiResponse>;
  patch(path: string, operations: unknown[]): Promise<ApiResponse>;
  del(path: string): Promise<ApiResponse>;
}

const send = (token: string, method: string, path: string, body?: unknown) =>
  call(method, `/scim/v2${path}`, { token, body, headers: body === undefined ? {} : { "Content-Type": "application/scim+json" } });

/** A fresh SCIM token (named `label-…`) and a client that sends it. */
export async function scimClient(label = "idp", admin?: Session): Promise<ScimClient & { id: string }> {
  const made = await post("/admin/scim-tokens", { name: unique(label) }, (admin ?? (await signInAdmin())).token);
  expect(made.status, made.text).toBe(201);
  const token = made.body.token as string;
  return {
    id: made.body.id,
    name: made.body.name,
    token,
    get: (path) => send(token, "GET", path),
    post: (path, body) => send(token, "POST", path, body),
    put: (path, body) => send(token, "PUT", path, body),
    patch: (path, operations) => send(token, "PATCH", path, { schemas: [PATCH_OP], Operations: operations }),
    del: (path) => send(token, "DELETE", path),
  };
}

/** A SCIM error body (RFC 7644 §3.12) with this status and, for a 400 or 409, this scimType. */
export function expectScimError(answer: ApiResponse, status: number, scimType?: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/scim\+json/);
  expect(answer.body).toMatchObject({ schemas: [ERROR], status: String(status), detail: expect.any(String) });
  if (scimType) expect(answer.body.scimType).toBe(scimType);
  return answer.body.detail as string;
}

/** The User resource Okta sends when it provisions someone (Okta's SCIM 2.0 guide, "Create the user"). */
export const oktaUser = (email: string, overrides: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName: email,
  name: { givenName: "Ada", familyName: "Lovelace" },
  emails: [{ primary: true, value: email, type: "work" }],
  displayName: "Ada Lovelace",
  locale: "en-US",
  externalId: unique("00u"),
  groups: [],
  password: "okta-sends-one-we-ignore",
  active: true,
  ...overrides,
});
