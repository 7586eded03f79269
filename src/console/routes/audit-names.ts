import type { Schema } from "../../../client/index.ts";
import { isPlatformAdmin } from "../roles";
import type { SignedInEnv } from "../types";
import type { Context } from "hono";

/** A person the audit log can name: an actor, and a choice of the actor filter. */
export interface Person {
  id: string;
  email: string;
}

/** At most this many networks' nodes are read to name the nodes a page of events touched. */
const NODE_LISTS = 10;

/**
 * What the audit page can say instead of ids, as far as the API lets the signed-in user read it: people from
 * the members of their groups (every user for a platform admin), and the nodes of the networks the shown
 * events are in. Ids it cannot resolve (a deleted node, an agent) stay ids.
 */
export async function auditNames(c: Context<SignedInEnv>, groups: Schema<"Group">[], events: Schema<"AuditEvent">[]) {
  const api = c.var.api;
  const networkIds = [...new Set(events.flatMap((event) => (event.networkId ? [event.networkId] : [])))].slice(0, NODE_LISTS);
  const [members, users, nodeLists] = await Promise.all([
    Promise.all(
      groups.map((group) => api.GET("/api/v1/groups/{id}/members", { params: { path: { id: group.id }, query: { limit: 200 } } })),
    ),
    isPlatformAdmin(c.var.user) ? api.GET("/api/v1/users", { params: { query: { limit: 200 } } }) : undefined,
    Promise.all(networkIds.map((networkId) => api.GET("/api/v1/nodes", { params: { query: { networkId, limit: 200 } } }))),
  ]);
  const people = new Map<string, string>([[c.var.user.id, c.var.user.email]]);
  for (const page of members) for (const member of page.data?.items ?? []) people.set(member.userId, member.email);
  for (const user of users?.data?.items ?? []) people.set(user.id, user.email);
  const nodes = new Map<string, string>();
  for (const page of nodeLists) for (const node of page.data?.items ?? []) nodes.set(node.id, node.name);
  const sorted: Person[] = [...people].map(([id, email]) => ({ id, email })).sort((a, b) => a.email.localeCompare(b.email));
  return { people: sorted, nodes };
}
