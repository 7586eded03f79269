import type { Context } from "hono";
import type { Schema } from "../../../client/index.ts";
import { refusal } from "../form";
import { FailurePage } from "../pages/network-frame";
import { canChangeGroup } from "../roles";
import type { SignedInEnv } from "../types";

export type NetworkContext = Context<SignedInEnv, "/networks/:id" | string>;

export interface LoadedNetwork {
  network: Schema<"Network">;
  /** Owner/admin of the network's group, or a platform admin: offered the forms (the API decides again). */
  canChange: boolean;
}

/** The plain error page for a read the API refused (404 unknown or hidden, 403, …), with its status. */
export function failure(c: NetworkContext, result: { error?: unknown; response: Response }) {
  const { message, status } = refusal(result);
  return c.html(<FailurePage user={c.var.user} csrfToken={c.var.csrfToken} message={message} />, status);
}

/**
 * The network named in the path and what the signed-in user may change in it. The caller's role comes from
 * the network's group (GET /groups/:id answers the caller's role there). Answers a Response when the API
 * refused the read, so a route can `if (loaded instanceof Response) return loaded`.
 */
export async function loadNetwork(c: NetworkContext): Promise<LoadedNetwork | Response> {
  const id = c.req.param("id") ?? "";
  const network = await c.var.api.GET("/api/v1/networks/{id}", { params: { path: { id } } });
  if (!network.data) return failure(c, network);
  const group = await c.var.api.GET("/api/v1/groups/{id}", { params: { path: { id: network.data.groupId } } });
  return { network: network.data, canChange: canChangeGroup(c.var.user, group.data) };
}

/** A text artifact from the API handed to the browser as a file to save (Content-Disposition: attachment). */
export function attachment(c: NetworkContext, body: string, filename: string) {
  const safe = filename.replace(/[^A-Za-z0-9._-]/g, "_");
  return c.body(body, 200, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Disposition": `attachment; filename="${safe}"`,
  });
}

/** The body of a create/update form: empty optional fields left out, so the API applies its defaults. */
export const optional = <T,>(value: string | undefined, map: (value: string) => T) =>
  value !== undefined && value.trim() !== "" ? map(value.trim()) : undefined;

/** A refused form, re-rendered: the API's sentence (and field errors), its status, and what was typed. */
export interface Refused {
  error: { message: string; fields?: { path: string; message: string }[] };
  status: ReturnType<typeof refusal>["status"];
  values?: Record<string, string>;
}

export function refusedBy(result: { error?: unknown; response: Response }, values?: Record<string, string>): Refused {
  const { message, fields, status } = refusal(result);
  return { error: { message, fields }, status, values };
}
