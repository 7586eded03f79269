import { and, eq, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { NetworkRow } from "../../db/rows";
import { networks } from "../../db/schema";
import { conflict, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { mustParseCidr, overlaps } from "../../core/net/cidr";
import { commit, type WriterContext } from "../network/commit";

export interface NewNetwork {
  groupId: string;
  name: string;
  cidr: string;
  dnsDomain: string;
}
export interface NetworkChanges {
  name?: string;
  cidr?: string;
  dnsDomain?: string;
  /** docs/access.md: open (every node reaches every node) or policy (only the access policy's rules allow). */
  accessMode?: NetworkRow["accessMode"];
}

/** Runs inside the group's writer: no two networks of one group may overlap or share a name. */
async function assertFitsInGroup(db: Db, groupId: string, candidate: { name?: string; cidr?: string }, exceptId?: string) {
  const siblings = await db
    .select({ id: networks.id, name: networks.name, cidr: networks.cidr })
    .from(networks)
    .where(exceptId ? and(eq(networks.groupId, groupId), ne(networks.id, exceptId)) : eq(networks.groupId, groupId))
    .all();
  const wanted = candidate.cidr ? mustParseCidr(candidate.cidr) : undefined;
  for (const sibling of siblings) {
    if (candidate.name !== undefined && sibling.name === candidate.name) {
      throw conflict(`The group already has a network named "${candidate.name}" (${sibling.id})`);
    }
    if (wanted && overlaps(wanted, mustParseCidr(sibling.cidr))) {
      throw conflict(`${candidate.cidr} overlaps ${sibling.cidr} of network ${sibling.id} in the same group`);
    }
  }
}

const networkEvent = (action: string, network: { id: string; groupId: string }) => ({
  action: `network.${action}`,
  resourceId: network.id,
  networkId: network.id,
  groupId: network.groupId,
});

/** A new network is open (every node reaches every node) until its owners choose policy mode (docs/access.md). */
const OPEN_ACCESS = { accessMode: "open", accessRevision: 0 } as const;

export async function createNetwork(ctx: WriterContext, input: NewNetwork): Promise<NetworkRow> {
  await assertFitsInGroup(ctx.db, input.groupId, input);
  const now = nowIso();
  const row: NetworkRow = {
    id: newId("net"),
    ...input,
    routingRevision: 0,
    dnsRevision: 0,
    ...OPEN_ACCESS,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(networks).values(row)], networkEvent("created", row));
  return row;
}

/**
 * Runs inside the group's writer: name and CIDR changes are checked against the group's other networks;
 * a new domain bumps the DNS revision.
 */
export async function applyNetworkChanges(ctx: WriterContext, networkId: string, changes: NetworkChanges): Promise<NetworkRow> {
  const { db } = ctx;
  const current = await db.select().from(networks).where(eq(networks.id, networkId)).get();
  if (!current) throw notFound("Network");
  const renamed = changes.name !== undefined && changes.name !== current.name;
  const moved = changes.cidr !== undefined && changes.cidr !== current.cidr;
  if (renamed || moved) {
    await assertFitsInGroup(
      db,
      current.groupId,
      { name: renamed ? changes.name : undefined, cidr: moved ? changes.cidr : undefined },
      networkId,
    );
  }
  const domainChanged = changes.dnsDomain !== undefined && changes.dnsDomain !== current.dnsDomain;
  // Every node's peers and filters follow the access mode: a new routing revision.
  const modeChanged = changes.accessMode !== undefined && changes.accessMode !== current.accessMode;
  const next: NetworkRow = {
    ...current,
    ...changes,
    // The zone's fallback name-server address comes from the CIDR, so a move changes the zone too.
    dnsRevision: current.dnsRevision + (domainChanged || moved ? 1 : 0),
    // Configs name the domain as their DNS search domain, so a new domain is a new routing revision too.
    routingRevision: current.routingRevision + (moved || domainChanged || modeChanged ? 1 : 0),
    updatedAt: nowIso(),
  };
  await commit(ctx, [db.update(networks).set(next).where(eq(networks.id, networkId))], networkEvent("updated", next));
  return next;
}
