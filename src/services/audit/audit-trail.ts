import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { insertWhere } from "../../db/insert-where";
import { auditEvents, type ActorType } from "../../db/schema";
import type { PlatformRole } from "../../lib/types";
import { newId, nowIso } from "../../lib/ids";
import type { EventInput } from "../notifications/event-types";

export interface Actor {
  type: ActorType;
  id: string | null;
}

/**
 * The request a write serves. It travels into the write (through the network's writer too), so the
 * audit row commits in the same batch as the change: no change without its row, no row without its change.
 */
export interface AuditContext {
  actor: Actor;
  requestId: string;
  method: string;
  /** The route pattern below the API base, e.g. /routing-policies/:id (descriptive; nothing matches on it). */
  route: string;
  params: Record<string, string>;
  /** The success status the route answers with. */
  status: number;
  /**
   * A user's session and the platform role its token claims: a user's write commits only while that session
   * is live (objects/network/authority/acting-authority.ts), as the authentication middleware checks it.
   */
  session?: { id: string; platformRole: PlatformRole };
}

/**
 * The audit context of a change the system makes on its own clock (a failover, a rule's expiry): no request
 * and no person, actor "system", `route` naming what happened and `id` the resource it happened to.
 */
export const systemAudit = (route: string, id: string): AuditContext => ({
  actor: { type: "system", id: null },
  requestId: newId("req"),
  method: "SYSTEM",
  route,
  params: { id },
  status: 200,
});

/** What a write did, in the domain's words; the audit row and any notification are made from it. */
export interface DomainEvent {
  /** e.g. "policy.created", "node.removed", "device.enrolled". */
  action: string;
  resourceId: string | null;
  groupId: string | null;
  networkId: string | null;
  /** The notification the change raises (policy.changed, device.enrolled), queued in the same batch. */
  notify?: EventInput;
}

/** The audit row of a change, for the change's own batch; `onlyIf`: written only when a conditional change happened. */
export function auditStatement(db: Db, context: AuditContext, event: DomainEvent, at = nowIso(), onlyIf?: SQL): BatchItem<"sqlite"> {
  const row = {
    id: newId("aud"),
    createdAt: at,
    actorType: context.actor.type,
    actorId: context.actor.id,
    method: context.method,
    route: context.route,
    params: context.params,
    resourceId: event.resourceId ?? Object.values(context.params).at(-1) ?? null,
    groupId: event.groupId,
    networkId: event.networkId,
    status: context.status,
    requestId: context.requestId,
  };
  return onlyIf ? insertWhere(db, auditEvents, row, onlyIf) : db.insert(auditEvents).values(row);
}
