import type { Db } from "../../db/client";
import { auditEvents, type ActorType } from "../../db/schema";
import { newId } from "../../lib/ids";
import type { ResponseIds } from "./response-ids";
import { resolveScope, type Scope } from "./scope";

export interface Mutation {
  at: string;
  method: string;
  /** Pattern below the API base, e.g. /routing-policies/:id. */
  route: string;
  params: Record<string, string>;
  status: number;
  requestId: string;
  actor: { type: ActorType; id: string | null };
  ids: ResponseIds;
  /** Resolved before the handler ran: a deletion leaves nothing to look up afterwards. */
  before?: Scope;
}

/**
 * Group and network of a mutation: what the response says, else what was resolved before the handler,
 * else a lookup of the ids involved (response id first, then path ids, last one first).
 */
export async function scopeOf(db: Db, mutation: Mutation): Promise<Scope> {
  const { ids, before } = mutation;
  if (ids.groupId && ids.networkId) return { groupId: ids.groupId, networkId: ids.networkId };
  if (before && (before.groupId || before.networkId)) return before;
  const paramIds = Object.values(mutation.params).reverse();
  const resolved = await resolveScope(db, [ids.networkId, ids.id, ...paramIds]);
  return { groupId: ids.groupId ?? resolved?.groupId ?? null, networkId: ids.networkId ?? resolved?.networkId ?? null };
}

/** Sign-in routes run before anyone is authenticated; the account they signed in is the actor. */
const actorOf = (mutation: Mutation) =>
  mutation.actor.type === "anonymous" && mutation.ids.signedInUserId
    ? { type: "user" as const, id: mutation.ids.signedInUserId }
    : mutation.actor;

export async function recordMutation(db: Db, mutation: Mutation, scope: Scope) {
  const actor = actorOf(mutation);
  const paramValues = Object.values(mutation.params);
  await db.insert(auditEvents).values({
    id: newId("aud"), createdAt: mutation.at, actorType: actor.type, actorId: actor.id, method: mutation.method,
    route: mutation.route, params: mutation.params, resourceId: mutation.ids.id ?? paramValues.at(-1) ?? null,
    groupId: scope.groupId, networkId: scope.networkId, status: mutation.status, requestId: mutation.requestId,
  });
}
