import { eq } from "drizzle-orm";
import { dnsRecords } from "../../../db/schema";
import { conflict, fieldError, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { LIMITS } from "../../../lib/limits";
import { findRecordConflict, validateRecord, type DnsRecord } from "../dns";
import { commit, type WriterContext } from "../commit";
import { bumpDnsRevision, type DnsRecordRow } from "../state";

export type { DnsRecordRow } from "../state";

/** The records as the writer holds them, with what the checks need from the network row. */
async function loadRecords(ctx: WriterContext, networkId: string) {
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  const { dnsRevision: revision, dnsDomain: domain, groupId } = held.network;
  return { held, revision, domain, groupId, records: [...held.records.values()] };
}

/**
 * The handler validated the record against the domain it read; a domain change may have run in this
 * writer since. Validating again against the domain of this moment keeps every stored full name
 * (and relative CNAME target) within 253 characters.
 */
function assertFitsDomain(record: DnsRecord, domain: string) {
  const checked = validateRecord(record, domain);
  if (!checked.ok) throw fieldError(checked.field, checked.message);
}

function assertNoConflict(records: DnsRecordRow[], candidate: DnsRecord, selfId?: string) {
  const reason = findRecordConflict(records, candidate, selfId);
  if (reason) throw conflict(reason);
}

/** The record arrives validated and normalised (names, values, ttl); the writer checks it against the set. */
const recordEvent = (action: string, recordId: string, networkId: string, groupId: string) => ({
  action: `dns-record.${action}`,
  resourceId: recordId,
  networkId,
  groupId,
});

export async function createRecord(ctx: WriterContext, networkId: string, record: DnsRecord): Promise<DnsRecordRow> {
  const { db } = ctx;
  const { held, revision, domain, groupId, records } = await loadRecords(ctx, networkId);
  assertFitsDomain(record, domain);
  if (records.length >= LIMITS.dnsRecordsPerNetwork) throw conflict(`A network holds at most ${LIMITS.dnsRecordsPerNetwork} DNS records`);
  assertNoConflict(records, record);
  const now = nowIso();
  const row: DnsRecordRow = { id: newId("dns"), networkId, ...record, revision: revision + 1, createdAt: now, updatedAt: now };
  await commit(
    ctx,
    [db.insert(dnsRecords).values(row), bumpDnsRevision(db, networkId)],
    recordEvent("created", row.id, networkId, groupId),
  );
  held.records.set(row.id, row);
  held.bumped({ dns: true });
  return row;
}

export async function replaceRecord(ctx: WriterContext, networkId: string, recordId: string, record: DnsRecord): Promise<DnsRecordRow> {
  const { db } = ctx;
  const { held, revision, domain, groupId, records } = await loadRecords(ctx, networkId);
  const current = records.find((row) => row.id === recordId);
  if (!current) throw notFound("DNS record");
  assertFitsDomain(record, domain);
  assertNoConflict(records, record, recordId);
  const next: DnsRecordRow = { ...current, ...record, revision: revision + 1, updatedAt: nowIso() };
  await commit(
    ctx,
    [db.update(dnsRecords).set(next).where(eq(dnsRecords.id, recordId)), bumpDnsRevision(db, networkId)],
    recordEvent("replaced", recordId, networkId, groupId),
  );
  held.records.set(recordId, next);
  held.bumped({ dns: true });
  return next;
}

export async function deleteRecord(ctx: WriterContext, networkId: string, recordId: string): Promise<void> {
  const { db } = ctx;
  const { held, groupId } = await loadRecords(ctx, networkId);
  if (!held.records.has(recordId)) throw notFound("DNS record");
  await commit(
    ctx,
    [db.delete(dnsRecords).where(eq(dnsRecords.id, recordId)), bumpDnsRevision(db, networkId)],
    recordEvent("deleted", recordId, networkId, groupId),
  );
  held.records.delete(recordId);
  held.bumped({ dns: true });
}
