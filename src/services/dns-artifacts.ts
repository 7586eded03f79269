import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { dnsRecords, networks, nodes } from "../db/schema";
import { notFound } from "../lib/errors";
import { defaultZoneFilePath, renderCorefile, renderZone, zoneEtag } from "./dns";
import { nameServerAddress, servedRecords } from "./network-dns";

export type DnsArtifact = "zonefile" | "corefile";

/** The Corefile is a function of the domain alone. */
export const corefileFor = (dnsDomain: string) => renderCorefile(dnsDomain, { zoneFilePath: defaultZoneFilePath(dnsDomain) });

/** The network's zone or Corefile and its strong ETag: one batch of reads, then pure rendering. */
export async function renderDnsArtifact(db: Db, networkId: string, kind: DnsArtifact) {
  if (kind === "corefile") {
    // A function of the domain alone: no need to read nodes and records.
    const network = await db.select({ dnsDomain: networks.dnsDomain }).from(networks).where(eq(networks.id, networkId)).get();
    if (!network) throw notFound("Network");
    const text = corefileFor(network.dnsDomain);
    return { text, etag: await zoneEtag(text) };
  }
  const [networkRows, nodeRows, recordRows] = await db.batch([
    db.select({ cidr: networks.cidr, dnsDomain: networks.dnsDomain }).from(networks).where(eq(networks.id, networkId)),
    db.select({ name: nodes.name, address: nodes.address, isGateway: nodes.isGateway }).from(nodes).where(eq(nodes.networkId, networkId)),
    db.select({ name: dnsRecords.name, type: dnsRecords.type, value: dnsRecords.value, ttl: dnsRecords.ttl })
      .from(dnsRecords).where(eq(dnsRecords.networkId, networkId)),
  ]);
  const network = networkRows[0];
  if (!network) throw notFound("Network");
  const text = renderZone(network.dnsDomain, servedRecords(recordRows, nodeRows), { nameServerAddress: nameServerAddress(network.cidr, nodeRows) });
  return { text, etag: await zoneEtag(text) };
}

/** RFC 9110: If-None-Match holds one or more entity tags (or *); a match means 304. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").map((tag) => tag.trim().replace(/^W\//, "")).some((tag) => tag === "*" || tag === etag);
}
