import { and, eq, exists, inArray, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { insertWhere } from "../../db/insert-where";
import { memberships, notificationChannels, notificationDeliveries, notificationEvents, users } from "../../db/schema";
import { newId } from "../../lib/ids";
import type { EventInput } from "./event-types";

/** D1 batches stay well under their statement limits; each event costs two statements. */
const EVENTS_PER_BATCH = 40;

/** Which memberships of the event's group receive it: any role, or for a device's event its readers only. */
const receivingRole = (input: EventInput, channelOwner: typeof notificationChannels.userId) => {
  if (!input.device) return undefined;
  const owns = input.device.ownerId === null ? undefined : and(eq(channelOwner, input.device.ownerId), ne(memberships.role, "viewer"));
  return or(inArray(memberships.role, ["admin", "owner"]), owns);
};

/**
 * One delivery per enabled channel that subscribed to the type and whose owner may see the network:
 * a member of its group (any role; for an event about a device node, its owner and the group's owners and
 * admins) or a platform admin, and not disabled. Recipients are fixed here,
 * when the event happens. The EXISTS on the event makes this a no-op when the event insert was
 * skipped as a duplicate (same dedupeKey), all inside one atomic batch.
 */
const fanOut = (db: Db, eventId: string, input: EventInput, now: string) => {
  const c = notificationChannels;
  const subscribed = sql`exists (select 1 from json_each(${c.events}) where json_each.value = ${input.type})`;
  const mayRead = or(
    eq(users.platformRole, "admin"),
    exists(
      db
        .select({ one: sql`1` })
        .from(memberships)
        .where(and(eq(memberships.groupId, input.groupId), eq(memberships.userId, c.userId), receivingRole(input, c.userId))),
    ),
  );
  const eventKept = exists(db.select({ one: sql`1` }).from(notificationEvents).where(eq(notificationEvents.id, eventId)));
  return db
    .insert(notificationDeliveries)
    .select(
      db
        .select({
          id: sql<string>`'ndl_' || lower(hex(randomblob(16)))`.as("id"),
          eventId: sql<string>`${eventId}`.as("event_id"),
          channelId: c.id,
          userId: c.userId,
          status: sql<"pending">`'pending'`.as("status"),
          attempts: sql<number>`0`.as("attempts"),
          nextAttemptAt: sql<string>`${now}`.as("next_attempt_at"),
          lastAttemptAt: sql<null>`null`.as("last_attempt_at"),
          lastStatusCode: sql<null>`null`.as("last_status_code"),
          lastError: sql<null>`null`.as("last_error"),
          deliveredAt: sql<null>`null`.as("delivered_at"),
          createdAt: sql<string>`${now}`.as("created_at"),
          updatedAt: sql<string>`${now}`.as("updated_at"),
        })
        .from(c)
        .innerJoin(users, eq(users.id, c.userId))
        .where(and(eq(c.enabled, true), isNull(users.disabledAt), subscribed, mayRead, eventKept)),
    )
    .returning({ id: notificationDeliveries.id });
};

/** Whether the fan-out statement's result (eventStatements' second) queued any delivery: else there is nothing to attempt. */
export const queuedAny = (fanOutResult: unknown) => Array.isArray(fanOutResult) && fanOutResult.length > 0;

/**
 * The statements that record one event and queue its deliveries: batched with the change that raised it
 * (an outbox), so an event exists exactly when its change committed.
 */
export function eventStatements(db: Db, input: EventInput, at: string, onlyIf?: SQL) {
  const id = newId("nev");
  const row = {
    id,
    type: input.type,
    networkId: input.networkId,
    groupId: input.groupId,
    subjectId: input.subjectId,
    data: input.data,
    dedupeKey: input.dedupeKey ?? null,
    createdAt: at,
  };
  // Conditional: only when the change that raised it happened (fanOut then finds no event and queues nothing).
  const insert = onlyIf ? insertWhere(db, notificationEvents, row, onlyIf) : db.insert(notificationEvents).values(row);
  const statements = [insert.onConflictDoNothing().returning({ id: notificationEvents.id }), fanOut(db, id, input, at)] as const;
  return { id, statements };
}

/** Records events and queues their deliveries; returns the ids of events that were new (not deduplicated). */
export async function emitEvents(db: Db, inputs: EventInput[], now = new Date()): Promise<string[]> {
  const at = now.toISOString();
  const created: string[] = [];
  for (let start = 0; start < inputs.length; start += EVENTS_PER_BATCH) {
    const statements = inputs.slice(start, start + EVENTS_PER_BATCH).flatMap((input) => eventStatements(db, input, at).statements);
    const [first, ...rest] = statements;
    if (!first) continue;
    const results = await db.batch([first, ...rest]);
    results.forEach((result, index) => {
      if (index % 2 === 0) created.push(...(result as { id: string }[]).map((row) => row.id));
    });
  }
  return created;
}
