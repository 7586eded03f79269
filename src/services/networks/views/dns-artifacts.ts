import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { dnsRecords, nodes } from "../../../db/schema";
import { defaultZoneFilePath, renderCorefile, renderZone, zoneEtag } from "../../../core/dns";
import { nameServerAddress, servedRecords } from "./served-records";

export type DnsArtifact = "zonefile" | "corefile";

/** The Corefile is a function of the domain alone. */
export const corefileFor = (dnsDomain: string) => renderCorefile(dnsDomain, { zoneFilePath: defaultZoneFilePath(dnsDomain) });

/** What rendering needs of the network; callers already hold it from their access check. */
export interface DnsNetwork {
  id: string;
  cidr: string;
  dnsDomain: string;
}

/** The network's zone or Corefile and its strong ETag: one batch of reads (zone only), then pure rendering. */
export async function renderDnsArtifact(db: Db, network: DnsNetwork, kind: DnsArtifact) {
  if (kind === "corefile") {
    const text = corefileFor(network.dnsDomain);
    return { text, etag: await zoneEtag(text) };
  }
  const [nodeRows, recordRows] = await db.batch([
    db.select({ name: nodes.name, address: nodes.address, isGateway: nodes.isGateway }).from(nodes).where(eq(nodes.networkId, network.id)),
    db
      .select({ name: dnsRecords.name, type: dnsRecords.type, value: dnsRecords.value, ttl: dnsRecords.ttl })
      .from(dnsRecords)
      .where(eq(dnsRecords.networkId, network.id)),
  ]);
  const text = renderZone(network.dnsDomain, servedRecords(recordRows, nodeRows, network.dnsDomain), {
    nameServerAddress: nameServerAddress(network.cidr, nodeRows),
  });
  return { text, etag: await zoneEtag(text) };
}

/** RFC 9110: If-None-Match holds one or more entity tags (or *); a match means 304. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}
