import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../../db/client";
import { insertWhere } from "../../../db/insert-where";
import { authorityGuard, memberships, users } from "../../../db/schema";
import { type ApiError, forbidden, notFound, unauthorized } from "../../../lib/errors";
import { roleAllows } from "../../../services/authorization";
import type { AuditContext, DomainEvent } from "../../../services/audit/audit-trail";
import { nowIso } from "../../../lib/ids";
import type { PlatformRole } from "../../../lib/types";
import { holdsRoleInGroup, MANAGING_ROLES, ownsDeviceIn, sessionLive } from "../../../services/live-authority";

/**
 * The rule (docs/architecture.md, "Authority inside the batch"): a write a user asked for commits only if
 * that user's authority still holds when its batch runs. The Worker checked it before sending the write,
 * but a removal, demotion or disabling commits elsewhere (not in this writer) and can land in between.
 * Writes that carry their own condition instead (enrolment, a gateway agent's node writes, gateway
 * placement) and the system's own writes (no user behind them) add nothing here.
 */
const CARRIES_ITS_OWN = new Set(["device.enrolled"]);
const DEVICE_WRITES = new Set(["device.renamed", "device.routing-changed", "device.removed"]);

/** What must still hold for this write, or undefined when nothing is to be re-checked here. */
export interface ActingAuthority {
  userId: string;
  groupId: string;
  /** A device's own write (its owner may make it): refused, the device is gone for them (404). */
  device: boolean;
  /** The session the user wrote with (AuditContext.session): it must be live too. */
  session?: { id: string; platformRole: PlatformRole };
  holds: SQL;
  /** Equal for writes whose `holds` says the same (user, session, group, and the device for a device's own write). */
  key: string;
}

export function actingAuthority(audit: AuditContext | undefined, event: DomainEvent): ActingAuthority | undefined {
  const actor = audit?.actor;
  if (actor?.type !== "user" || !actor.id || !event.groupId || CARRIES_ITS_OWN.has(event.action)) return undefined;
  const manages = holdsRoleInGroup(actor.id, event.groupId, MANAGING_ROLES);
  const device = DEVICE_WRITES.has(event.action) && !!event.resourceId;
  const role = device ? sql`(${manages} or ${ownsDeviceIn(actor.id, event.resourceId ?? "", event.groupId)})` : manages;
  const session = audit?.session;
  const holds = session ? sql`(${sessionLive(actor.id, session.id, session.platformRole, nowIso())} and ${role})` : role;
  const key = [actor.id, session?.id, session?.platformRole, event.groupId, device ? event.resourceId : ""].join(" ");
  return { userId: actor.id, groupId: event.groupId, device, ...(session ? { session } : {}), holds, key };
}

/** First in the batch: inserts a row the table's CHECK refuses when `holds` is false, so the whole batch rolls back. */
export const guardStatement = (db: Db, holds: SQL): BatchItem<"sqlite"> => insertWhere(db, authorityGuard, { held: 0 }, sql`not ${holds}`);

export { isGuardRefusal } from "../../../lib/db-errors";

/**
 * The answer a fresh check in the Worker would now give: 401 for an ended session or a disabled user, 404
 * without a role (or the device), 403 below it, else 401.
 */
export async function refusal(db: Db, { userId, groupId, device, session }: ActingAuthority): Promise<ApiError> {
  const live = session ? sessionLive(userId, session.id, session.platformRole, nowIso()) : sql`1`;
  const row = await db
    .select({
      disabledAt: users.disabledAt,
      platformRole: users.platformRole,
      role: memberships.role,
      live: sql<number>`${live}`.as("session_live"),
    })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.groupId, groupId)))
    .where(eq(users.id, userId))
    .get();
  if (!row || row.disabledAt) return unauthorized("Your access has ended");
  if (!row.live) return unauthorized("The session has ended; sign in again");
  if (device) return notFound("Device");
  if (row.platformRole !== "admin" && !row.role) return notFound("Network");
  if (row.platformRole !== "admin" && row.role && !roleAllows(row.role, "manage"))
    return forbidden(`Your role (${row.role}) does not allow this`);
  return unauthorized("Your access to this network has ended");
}
