import { eq } from "drizzle-orm";
import { dnsRecords } from "../../../db/schema";
import { conflict, fieldError, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { LIMITS } from "../../../lib/limits";
import { findRecordConflict, validateRecord, type DnsRecord, type RecordInput } from "../../../core/dns";
import { commit, type WriterContext } from "../commit";
import type { DnsRecordRow } from "../../../db/rows";
import { bumpDnsRevision } from "../state";

export type { DnsRecordRow } from "../../../db/rows";

/** The records as the writer holds them, with what the checks need from the network row. */
async function loadRecords(ctx: WriterContext, networkId: string) {
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  const { dnsRevision: revision, dnsDomain: domain, groupId } = held.network;
  return { held, revision, domain, groupId, records: [...held.records.values()] };
}

/**
 * The record as sent, validated and normalised against the network's domain as this writer holds it (a
 * domain change runs in this writer too): every stored full name (and relative CNAME target) stays within
 * 253 characters. A 422 names the field, as the schema's own checks do.
 */
function fitted(input: RecordInput, domain: string): DnsRecord {
  const checked = validateRecord(input, domain);
  if (!checked.ok) throw fieldError(checked.field, checked.message);
  return checked.value;
}

function assertNoConflict(records: DnsRecordRow[], candidate: DnsRecord, selfId?: string) {
  const reason = findRecordConflict(records, candidate, selfId);
  if (reason) throw conflict(reason);
}

/** What a record change is, in the domain's words. */
const recordEvent = (action: string, recordId: string, networkId: string, groupId: string) => ({
  action: `dns-record.${action}`,
  resourceId: recordId,
  networkId,
  groupId,
});

export async function createRecord(ctx: WriterContext, networkId: string, input: RecordInput): Promise<DnsRecordRow> {
  const { db } = ctx;
  const { held, revision, domain, groupId, records } = await loadRecords(ctx, networkId);
  const record = fitted(input, domain);
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

export async function replaceRecord(ctx: WriterContext, networkId: string, recordId: string, input: RecordInput): Promise<DnsRecordRow> {
  const { db } = ctx;
  const { held, revision, domain, groupId, records } = await loadRecords(ctx, networkId);
  const current = records.find((row) => row.id === recordId);
  if (!current) throw notFound("DNS record");
  const record = fitted(input, domain);
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
