import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { networks, nodes } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import { sha256 } from "../auth/tokens";
import { corefileFor, renderDnsArtifact } from "../networks/views/dns-artifacts";
import { loadNodeConfigs } from "../networks/views/node-configs";

/** The gateway nodes a daemon runs, with their networks' revisions. */
export const servedNodes = (db: Db, gatewayId: string) =>
  db
    .select({
      nodeId: nodes.id,
      networkId: networks.id,
      cidr: networks.cidr,
      routingRevision: networks.routingRevision,
      dnsRevision: networks.dnsRevision,
      dnsDomain: networks.dnsDomain,
    })
    .from(nodes)
    .innerJoin(networks, eq(networks.id, nodes.networkId))
    .where(and(eq(nodes.gatewayId, gatewayId), eq(nodes.isGateway, true)))
    .all();

export type ServedNode = Awaited<ReturnType<typeof servedNodes>>[number];

/**
 * Every routing or DNS change bumps its network's revision, so (node, revisions) names the desired
 * state exactly: a poll that matches answers 304 after one query, before anything is rendered.
 */
export const desiredStateEtag = (served: ServedNode[]) =>
  `"${sha256(
    served
      .map((n) => `${n.nodeId}:${n.routingRevision}:${n.dnsRevision}`)
      .sort()
      .join(","),
  )}"`;

/** Config, Corefile and zone of every served node: one state read and one zone render per network, networks read concurrently. */
export async function renderDesiredState(db: Db, gatewayId: string, served: ServedNode[]) {
  const byNetwork = new Map<string, ServedNode[]>();
  for (const node of served) byNetwork.set(node.networkId, [...(byNetwork.get(node.networkId) ?? []), node]);
  const perNetwork = await Promise.all(
    [...byNetwork].map(async ([networkId, members]) => {
      const read = await Promise.all([
        loadNodeConfigs(
          db,
          networkId,
          members.map((node) => node.nodeId),
        ),
        renderDnsArtifact(db, { id: networkId, cidr: members[0]!.cidr, dnsDomain: members[0]!.dnsDomain }, "zonefile"),
      ]).catch((error: unknown) => {
        // The network was deleted since the first read: leave it out, keep the others.
        if (error instanceof ApiError && error.code === "not_found") return null;
        throw error;
      });
      if (!read) return [];
      const [configs, zone] = read;
      return members.flatMap((node) => {
        const config = configs.get(node.nodeId);
        // Removed between the two reads: the next poll's ETag no longer names it.
        if (!config) return [];
        return [
          {
            networkId,
            nodeId: node.nodeId,
            config,
            dns: { domain: node.dnsDomain, revision: node.dnsRevision, corefile: corefileFor(node.dnsDomain), zonefile: zone.text },
          },
        ];
      });
    }),
  );
  return { gatewayId, nodes: perNetwork.flat() };
}
