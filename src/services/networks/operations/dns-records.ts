import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { dnsRecords, networks } from "../../../db/schema";
import { conflict, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { LIMITS } from "../../../lib/limits";
import { findRecordConflict, type DnsRecord } from "../dns";
import { bumpDnsRevision } from "../state";

export type DnsRecordRow = typeof dnsRecords.$inferSelect;

async function loadRecords(db: Db, networkId: string) {
  const [networkRows, rows] = await db.batch([
    db.select({ dnsRevision: networks.dnsRevision }).from(networks).where(eq(networks.id, networkId)),
    db.select().from(dnsRecords).where(eq(dnsRecords.networkId, networkId)),
  ]);
  if (!networkRows[0]) throw notFound("Network");
  return { revision: networkRows[0].dnsRevision, records: rows };
}

function assertNoConflict(records: DnsRecordRow[], candidate: DnsRecord, selfId?: string) {
  const reason = findRecordConflict(records, candidate, selfId);
  if (reason) throw conflict(reason);
}

/** The record arrives validated and normalised (names, values, ttl); the writer checks it against the set. */
export async function createRecord(db: Db, networkId: string, record: DnsRecord): Promise<DnsRecordRow> {
  const { revision, records } = await loadRecords(db, networkId);
  if (records.length >= LIMITS.dnsRecordsPerNetwork) throw conflict(`A network holds at most ${LIMITS.dnsRecordsPerNetwork} DNS records`);
  assertNoConflict(records, record);
  const now = nowIso();
  const row: DnsRecordRow = { id: newId("dns"), networkId, ...record, revision: revision + 1, createdAt: now, updatedAt: now };
  await db.batch([db.insert(dnsRecords).values(row), bumpDnsRevision(db, networkId)]);
  return row;
}

export async function replaceRecord(db: Db, networkId: string, recordId: string, record: DnsRecord): Promise<DnsRecordRow> {
  const { revision, records } = await loadRecords(db, networkId);
  const current = records.find((row) => row.id === recordId);
  if (!current) throw notFound("DNS record");
  assertNoConflict(records, record, recordId);
  const next: DnsRecordRow = { ...current, ...record, revision: revision + 1, updatedAt: nowIso() };
  await db.batch([db.update(dnsRecords).set(next).where(eq(dnsRecords.id, recordId)), bumpDnsRevision(db, networkId)]);
  return next;
}

export async function deleteRecord(db: Db, networkId: string, recordId: string): Promise<void> {
  const { records } = await loadRecords(db, networkId);
  if (!records.some((row) => row.id === recordId)) throw notFound("DNS record");
  await db.batch([db.delete(dnsRecords).where(eq(dnsRecords.id, recordId)), bumpDnsRevision(db, networkId)]);
}
