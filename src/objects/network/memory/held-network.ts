import type { AccessDocument, NodeOwner } from "../access-policy/access-state";
import { mustParseCidr } from "../../../core/net/cidr";
import { publicKeyOrNull } from "../../../core/net/wireguard-key";
import { AddressPool } from "../../../core/net/address-pool";
import { compareIds } from "../../../core/routing/ordering";
import type { DnsRecordRow, NetworkRow, NodeRow, PolicyRow, PoolRow, RelayedPairRow } from "../../../db/rows";
import type { NetworkState } from "../state";

/**
 * One network as its writer holds it in memory: the rows routing and DNS depend on, with the indexes
 * the writes check against (names, public keys, addresses), so a write reads no row it does not change.
 * Rows are replaced, never mutated in place: a topology built from them stays as it was.
 *
 * Heartbeat columns of the node rows (lastSeenAt, applied revisions) are written outside the writer and
 * are stale here by design; nothing served comes from them (a route that answers with a node the writer
 * changed lays them over from the row it read: services/networks/views/node-reports.ts `keepReported`).
 */
export class HeldNetwork {
  network: NetworkRow;
  readonly nodes = new Map<string, NodeRow>();
  readonly policies = new Map<string, PolicyRow>();
  readonly records = new Map<string, DnsRecordRow>();
  /** Gateway pools: hops of gateway paths whose active member the writer chooses (operations/gateway-pools.ts). */
  readonly pools = new Map<string, PoolRow>();
  /** Pairs on a relay, and pairs back on direct that keep their hold (docs/nat.md), keyed "nodeA nodeB". */
  readonly relayedPairs = new Map<string, RelayedPairRow>();
  addresses: AddressPool;
  /** The access policy in force (docs/access.md) and whose each device node is, for its selectors. */
  access: AccessDocument;
  readonly owners: Map<string, NodeOwner>;
  private readonly byName = new Map<string, string>();
  private readonly byKey = new Map<string, string>();

  constructor(state: NetworkState) {
    this.network = state.network;
    this.addresses = new AddressPool(mustParseCidr(state.network.cidr));
    for (const node of state.nodes) this.putNode(node);
    for (const policy of state.policies) this.policies.set(policy.id, policy);
    for (const record of state.records) this.records.set(record.id, record);
    for (const pool of state.pools) this.pools.set(pool.id, pool);
    for (const pair of state.relayedPairs) this.relayedPairs.set(pairKey(pair.nodeA, pair.nodeB), pair);
    this.access = state.access;
    this.owners = new Map(state.owners);
  }

  /** The pool a node is a member of (a node belongs to at most one). */
  poolOf(nodeId: string): PoolRow | undefined {
    for (const pool of this.pools.values()) if (pool.members.some((member) => member.nodeId === nodeId)) return pool;
    return undefined;
  }

  nodeNamed(name: string): NodeRow | undefined {
    const id = this.byName.get(name);
    return id === undefined ? undefined : this.nodes.get(id);
  }

  nodeWithKey(publicKey: string): NodeRow | undefined {
    if (publicKeyOrNull(publicKey) === null) return undefined;
    const id = this.byKey.get(publicKey);
    return id === undefined ? undefined : this.nodes.get(id);
  }

  putNode(row: NodeRow): void {
    this.unindex(row.id);
    this.nodes.set(row.id, row);
    this.byName.set(row.name, row.id);
    // Keyless gateway nodes (awaiting their agent) share '' and are not found by key.
    if (publicKeyOrNull(row.publicKey) !== null) this.byKey.set(row.publicKey, row.id);
    this.addresses.take(row.address);
  }

  removeNode(id: string): void {
    this.unindex(id);
    // As D1's foreign keys do: the node's pairs go, and pairs it relayed are direct again.
    for (const [key, pair] of this.relayedPairs) {
      if (pair.nodeA === id || pair.nodeB === id) this.relayedPairs.delete(key);
      else if (pair.relayNodeId === id) this.relayedPairs.set(key, { ...pair, relayNodeId: null });
    }
  }

  private unindex(id: string): void {
    const old = this.nodes.get(id);
    if (!old) return;
    this.nodes.delete(id);
    if (this.byName.get(old.name) === id) this.byName.delete(old.name);
    if (this.byKey.get(old.publicKey) === id) this.byKey.delete(old.publicKey);
    this.addresses.release(old.address);
  }

  /** A network row read or written since: the address pool follows a CIDR change (only ever on an empty network). */
  setNetwork(row: NetworkRow): void {
    if (row.cidr !== this.network.cidr) {
      this.addresses = new AddressPool(mustParseCidr(row.cidr));
      for (const node of this.nodes.values()) this.addresses.take(node.address);
    }
    this.network = row;
  }

  /** Mirrors the revision bumps a commit carried (`current + 1` in SQL; only this writer runs them). */
  bumped(which: { routing?: boolean; dns?: boolean }): void {
    this.network = {
      ...this.network,
      routingRevision: this.network.routingRevision + (which.routing ? 1 : 0),
      dnsRevision: this.network.dnsRevision + (which.dns ? 1 : 0),
    };
  }

  /** Rows in id order, the form a fresh load is compared with (tests) and topologies are built from. */
  state(): NetworkState {
    const byId = <T extends { id: string }>(rows: Iterable<T>) => [...rows].sort(compareIds);
    return {
      network: this.network,
      nodes: byId(this.nodes.values()),
      policies: byId(this.policies.values()),
      records: byId(this.records.values()),
      pools: byId(this.pools.values()),
      relayedPairs: [...this.relayedPairs.values()].sort((a, b) =>
        compareIds({ id: pairKey(a.nodeA, a.nodeB) }, { id: pairKey(b.nodeA, b.nodeB) }),
      ),
      access: this.access,
      owners: new Map(this.owners),
    };
  }
}

/** A pair's key, whichever end names it first: ids in order. */
export const pairKey = (x: string, y: string) => (x < y ? `${x} ${y}` : `${y} ${x}`);
