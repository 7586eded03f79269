import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { devices, dnsRecords, enrolmentKeys, networks, nodes, routingPolicies } from "../../db/schema";

export interface Scope {
  groupId: string | null;
  networkId: string | null;
  /** The resource's name when the lookup had it (policy.changed for a deletion names the policy). */
  name?: string;
}

type Lookup = (db: Db, id: string) => Promise<Scope | undefined>;

const viaNetwork = (table: typeof routingPolicies | typeof dnsRecords | typeof nodes | typeof devices | typeof enrolmentKeys): Lookup =>
  (db, id) => db.select({ groupId: networks.groupId, networkId: networks.id }).from(table)
    .innerJoin(networks, eq(networks.id, table.networkId)).where(eq(table.id, id)).get();

/** Which group and network an id belongs to, by its type prefix; one indexed read. */
const LOOKUPS: Record<string, Lookup> = {
  grp: async (_db, id) => ({ groupId: id, networkId: null }),
  net: (db, id) => db.select({ groupId: networks.groupId, networkId: networks.id }).from(networks).where(eq(networks.id, id)).get(),
  rp: (db, id) => db.select({ groupId: networks.groupId, networkId: networks.id, name: routingPolicies.name }).from(routingPolicies)
    .innerJoin(networks, eq(networks.id, routingPolicies.networkId)).where(eq(routingPolicies.id, id)).get(),
  dns: viaNetwork(dnsRecords),
  node: viaNetwork(nodes),
  dev: viaNetwork(devices),
  ek: viaNetwork(enrolmentKeys),
};

/** The scope of the first id (in order of preference) that resolves; null ids and unknown prefixes are skipped. */
export async function resolveScope(db: Db, ids: (string | null | undefined)[]): Promise<Scope | undefined> {
  for (const id of ids) {
    const lookup = id ? LOOKUPS[id.slice(0, id.indexOf("_"))] : undefined;
    const scope = lookup && id ? await lookup(db, id) : undefined;
    if (scope) return scope;
  }
  return undefined;
}
