import type { Context } from "hono";
import type { Schema } from "../../../client/index.ts";
import { isPlatformAdmin } from "../roles";
import type { SignedInEnv } from "../types";

/** A person the audit log can name: an actor, and a choice of the actor filter. */
export interface Person {
  id: string;
  email: string;
}

/** At most this many networks' nodes, policies, pools and records are read to name what a page of events touched. */
const NETWORK_LISTS = 10;

type Named = { id: string; name: string };
type Listed = { data?: { items: Named[] } };

/**
 * What the audit page can say instead of ids, as far as the API lets the signed-in user read it: people from the
 * members of their groups (every user for a platform admin); the nodes, routing policies, gateway pools, DNS records
 * and enrolment keys of the networks the shown events are in; their devices; the gateway inventory, regions and
 * agents where the user may read them. A list the API refuses costs only its names. Ids of what no longer exists (a
 * deleted policy) stay ids: nothing can name them.
 */
export async function auditNames(c: Context<SignedInEnv>, groups: Schema<"Group">[], events: Schema<"AuditEvent">[]) {
  const api = c.var.api;
  const admin = isPlatformAdmin(c.var.user);
  const networkIds = [...new Set(events.flatMap((event) => (event.networkId ? [event.networkId] : [])))].slice(0, NETWORK_LISTS);
  const page = { limit: 200 };
  const perNetwork = (id: string): Promise<Listed>[] => {
    const path = { path: { id }, query: page };
    return [
      api.GET("/api/v1/nodes", { params: { query: { networkId: id, ...page } } }),
      api.GET("/api/v1/networks/{id}/routing-policies", { params: path }),
      api.GET("/api/v1/networks/{id}/gateway-pools", { params: { path: { id } } }),
      api.GET("/api/v1/networks/{id}/enrolment-keys", { params: path }),
      api.GET("/api/v1/networks/{id}/dns/records", { params: path }).then((records) => ({
        data: records.data && { items: records.data.items.map((record) => ({ id: record.id, name: `${record.name} ${record.type}` })) },
      })),
    ];
  };
  const [members, users, lists] = await Promise.all([
    Promise.all(groups.map((group) => api.GET("/api/v1/groups/{id}/members", { params: { path: { id: group.id }, query: page } }))),
    admin ? api.GET("/api/v1/users", { params: { query: page } }) : undefined,
    Promise.all([
      ...networkIds.flatMap(perNetwork),
      api.GET("/api/v1/devices", { params: { query: page } }),
      api.GET("/api/v1/gateways", { params: { query: page } }),
      api.GET("/api/v1/regions", { params: { query: page } }),
      admin ? api.GET("/api/v1/agents", { params: { query: page } }) : Promise.resolve({}),
    ] as Promise<Listed>[]),
  ]);
  const people = new Map<string, string>([[c.var.user.id, c.var.user.email]]);
  for (const listed of members) for (const member of listed.data?.items ?? []) people.set(member.userId, member.email);
  for (const user of users?.data?.items ?? []) people.set(user.id, user.email);
  const names = new Map<string, string>();
  for (const listed of lists) for (const item of listed.data?.items ?? []) names.set(item.id, item.name);
  const sorted: Person[] = [...people].map(([id, email]) => ({ id, email })).sort((a, b) => a.email.localeCompare(b.email));
  return { people: sorted, names };
}

/** At most this many groups and networks a page's events name are read one by one when the lists missed them. */
const OWNERS_READ = 20;

/**
 * The groups and networks the shown events are in that the first pages of the lists did not hold (an admin of a
 * platform with more than 200): read by id, so the page names them instead of showing ids.
 */
export async function eventOwners(
  c: Context<SignedInEnv>,
  events: Schema<"AuditEvent">[],
  listed: { groups: Schema<"Group">[]; networks: Schema<"Network">[] },
) {
  const missing = (ids: (string | null)[], known: { id: string }[]) => {
    const have = new Set(known.map((item) => item.id));
    return [...new Set(ids.filter((id): id is string => id !== null && !have.has(id)))].slice(0, OWNERS_READ);
  };
  const api = c.var.api;
  const [groups, networks] = await Promise.all([
    Promise.all(
      missing(
        events.map((e) => e.groupId),
        listed.groups,
      ).map((id) => api.GET("/api/v1/groups/{id}", { params: { path: { id } } })),
    ),
    Promise.all(
      missing(
        events.map((e) => e.networkId),
        listed.networks,
      ).map((id) => api.GET("/api/v1/networks/{id}", { params: { path: { id } } })),
    ),
  ]);
  return {
    groups: [...listed.groups, ...groups.flatMap((read) => (read.data ? [read.data] : []))],
    networks: [...listed.networks, ...networks.flatMap((read) => (read.data ? [read.data] : []))],
  };
}

/** What a change did, in words: "created routing policy", "changed node", "revoke (device)". */
export function actionWords(method: string, route: string): string {
  const words = route.split("/").filter(Boolean);
  const literal = words.filter((word) => !word.startsWith(":"));
  const last = words.at(-1) ?? "";
  const noun = (word: string | undefined) => (word ?? "").replace(/-/g, " ").replace(/ies$/, "y").replace(/s$/, "");
  if (last.startsWith(":")) {
    const subject = noun(literal.at(-1));
    return method === "DELETE" ? `deleted ${subject}` : `changed ${subject}`;
  }
  // A collection: POST adds to it, PUT replaces it; any other last word is an action on what precedes it.
  const plural = /s$/.test(last) && !["access", "settings"].includes(last);
  if (method === "POST" && plural) return `created ${noun(last)}`;
  const on = literal.at(-2);
  const what = last.replace(/-/g, " ");
  if (method === "DELETE") return `deleted ${what}${on ? ` (${noun(on)})` : ""}`;
  if (method === "PUT" || method === "PATCH") return `changed ${what}${on ? ` (${noun(on)})` : ""}`;
  return on ? `${what} (${noun(on)})` : what;
}
