import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Env, getConfig } from "../../lib/env";
import { networks, nodes } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import { sha256 } from "../auth/tokens";
import { corefileFor, renderDnsArtifact } from "../networks/views/dns-artifacts";
import { publicKeyOrNull } from "../../core/net/wireguard-key";
import { probeRules } from "../networks/pools/vitals";
import { loadNodeConfigs } from "../networks/views/node-configs";

/** The gateway nodes a daemon runs, with their networks' revisions. */
export const servedNodes = (db: Db, gatewayId: string) =>
  db
    .select({
      nodeId: nodes.id,
      // Key, servesDns and address: every change to them bumps the routing revision, so the ETag covers them.
      publicKey: nodes.publicKey,
      servesDns: nodes.servesDns,
      address: nodes.address,
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

/** The revisions a daemon says it holds, per node it serves (absent: it holds nothing of that node). */
export type HeldRevisions = ReadonlyMap<string, { routing: number; dns: number }>;

/**
 * Config, Corefile and zone of every served node: networks read concurrently, configs from each network's
 * writer. A node whose daemon holds a routing revision gets a delta where one can be computed; one that
 * holds the current DNS revision gets no Corefile or zone, and a network none of whose nodes needs its
 * zone is not rendered at all (the zone is the part that reads the whole network).
 */
export async function renderDesiredState(env: Env, db: Db, gatewayId: string, served: ServedNode[], held: HeldRevisions = new Map()) {
  const byNetwork = new Map<string, ServedNode[]>();
  for (const node of served) byNetwork.set(node.networkId, [...(byNetwork.get(node.networkId) ?? []), node]);
  const perNetwork = await Promise.all(
    [...byNetwork].map(async ([networkId, members]) => {
      const needsZone = members.some((node) => held.get(node.nodeId)?.dns !== node.dnsRevision);
      const wanted = members.map((node) => ({ nodeId: node.nodeId, sinceRevision: held.get(node.nodeId)?.routing }));
      const network = { id: networkId, cidr: members[0]!.cidr, dnsDomain: members[0]!.dnsDomain };
      const read = await Promise.all([
        loadNodeConfigs(env, networkId, wanted),
        needsZone ? renderDnsArtifact(db, network, "zonefile") : null,
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
        const holdsDns = held.get(node.nodeId)?.dns === node.dnsRevision;
        const dns = { domain: node.dnsDomain, revision: node.dnsRevision };
        return [
          {
            networkId,
            nodeId: node.nodeId,
            address: node.address,
            publicKey: publicKeyOrNull(node.publicKey),
            servesDns: node.servesDns,
            probes: config.probes,
            ...(config.delta ? { delta: config.delta } : { config: config.config }),
            dns: holdsDns || !zone ? dns : { ...dns, corefile: corefileFor(node.dnsDomain), zonefile: zone.text },
          },
        ];
      });
    }),
  );
  return { gatewayId, probeRules: probeRules(getConfig(env)), nodes: perNetwork.flat() };
}
