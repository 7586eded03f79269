import { parseAddress } from "../net/ipam";
import { applyInboundPatch, patchInboundRules } from "./filter-patch";
import { compareBigInt } from "./ordering";
import type { ConfigDelta, NodeConfig, NodeConfigCore, PeerConfig } from "./types";
import { renderWgQuick } from "./wg-quick";

/**
 * Deltas between two configs of one node: what a client holding `from` needs to hold `to`. Computed
 * from the two configs themselves (not from the writes in between), so whatever changed, applying the
 * delta gives exactly the config the server would send whole; test/routing/config-delta.test.ts checks
 * that over random networks and changes.
 */

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function diffConfigs(from: NodeConfigCore, to: NodeConfigCore): ConfigDelta {
  const before = new Map(from.peers.map((peer) => [peer.nodeId, peer]));
  const after = new Set(to.peers.map((peer) => peer.nodeId));
  const delta: ConfigDelta = {
    nodeId: to.nodeId,
    networkId: to.networkId,
    fromRevision: from.routingRevision,
    routingRevision: to.routingRevision,
    peersUpserted: to.peers.filter((peer) => !sameJson(before.get(peer.nodeId), peer)),
    peersRemoved: from.peers.filter((peer) => !after.has(peer.nodeId)).map((peer) => peer.nodeId),
  };
  if (!sameJson(from.interface, to.interface)) delta.interface = to.interface;
  if (!sameJson(from.routingIntent, to.routingIntent)) delta.routingIntent = to.routingIntent;
  if (from.forwarding !== to.forwarding) delta.forwarding = to.forwarding;
  if (!sameJson(from.accessRules, to.accessRules)) {
    const patch = from.accessRules && to.accessRules ? patchInboundRules(from.accessRules, to.accessRules) : null;
    if (patch) delta.accessRulesPatch = patch;
    else delta.accessRules = to.accessRules ?? null;
  }
  if (!sameJson(from.forwardRules, to.forwardRules)) delta.forwardRules = to.forwardRules ?? null;
  return delta;
}

/** Peers in config order: by overlay address as a number, then by node id (routing/peer-routes.ts). */
function comparePeers(a: PeerConfig, b: PeerConfig): number {
  const byAddress = compareBigInt(parseAddress(a.address)?.value ?? -1n, parseAddress(b.address)?.value ?? -1n);
  return byAddress || (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0);
}

/** An access filter after a delta: unchanged when absent, gone when null (the network left policy mode). */
function filterAfter<K extends "accessRules" | "forwardRules">(key: K, from: NodeConfigCore, delta: ConfigDelta): Pick<NodeConfigCore, K> {
  const value = delta[key] === undefined ? from[key] : delta[key];
  return (value === null || value === undefined ? {} : { [key]: value }) as Pick<NodeConfigCore, K>;
}

/** The inbound filter after a delta: patched entry by entry, or as filterAfter says. */
function accessRulesAfter(from: NodeConfigCore, delta: ConfigDelta): Pick<NodeConfigCore, "accessRules"> {
  if (!delta.accessRulesPatch) return filterAfter("accessRules", from, delta);
  if (!from.accessRules) throw new Error("The delta patches an inbound filter the config does not have");
  return { accessRules: applyInboundPatch(from.accessRules, delta.accessRulesPatch) };
}

/** The config a delta leads to. Refuses a delta made for another node or from another revision. */
export function applyConfigDelta(from: NodeConfigCore, delta: ConfigDelta): NodeConfig {
  if (delta.nodeId !== from.nodeId || delta.networkId !== from.networkId) throw new Error("The delta is for another node");
  if (delta.fromRevision !== from.routingRevision) {
    throw new Error(`The delta starts at revision ${delta.fromRevision}, the config is at ${from.routingRevision}`);
  }
  const replaced = new Set([...delta.peersRemoved, ...delta.peersUpserted.map((peer) => peer.nodeId)]);
  const peers = [...from.peers.filter((peer) => !replaced.has(peer.nodeId)), ...delta.peersUpserted].sort(comparePeers);
  const core: NodeConfigCore = {
    nodeId: from.nodeId,
    networkId: from.networkId,
    routingRevision: delta.routingRevision,
    interface: delta.interface ?? from.interface,
    peers,
    routingIntent: delta.routingIntent ?? from.routingIntent,
    forwarding: delta.forwarding ?? from.forwarding,
    ...accessRulesAfter(from, delta),
    ...filterAfter("forwardRules", from, delta),
  };
  const family = core.interface.address.includes(":") ? "ipv6" : "ipv4";
  return { ...core, wgQuick: renderWgQuick(core, family) };
}
