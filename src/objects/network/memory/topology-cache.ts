import { compileHeldAccess } from "../access-policy/held-access";
import { buildTopology, type Topology } from "../../../core/routing";
import { AccessChange } from "../../../core/routing/access-change";
import { dnsServersOf, toEffectiveRoutingPolicy, toRoutingNetwork, toRoutingNode } from "../../../core/routing/from-rows";
import type { HeldNetwork } from "./held-network";

/**
 * Topologies by routing revision. The current one is built once, at the first config read of its
 * revision, and shared by every read of that revision; a few older ones stay so that a client holding
 * one of them can be sent only what changed (a delta) instead of its whole config.
 *
 * The older ones kept are the revisions configs were last served at, which are the ones clients hold.
 * Each costs about as much memory as the network's node rows; KEPT bounds that.
 */
const KEPT = 4;

export class TopologyCache {
  private readonly byRevision = new Map<number, Topology>();
  private readonly changes = new WeakMap<Topology, { current: Topology; change: AccessChange }>();

  /** The topology of the held network's revision, built now if no read has needed it yet. */
  current(held: HeldNetwork): Topology {
    const revision = held.network.routingRevision;
    const cached = this.byRevision.get(revision);
    if (cached) {
      // Most recently used last: Map keeps insertion order, so the first entry is the one to evict.
      this.byRevision.delete(revision);
      this.byRevision.set(revision, cached);
      return cached;
    }
    const state = held.state();
    const network = toRoutingNetwork(state.network, dnsServersOf(state.nodes), state.relayedPairs);
    const access = state.network.accessMode === "policy" ? compileHeldAccess(state, Date.now()) : null;
    const built = buildTopology(network, state.nodes.map(toRoutingNode), state.policies.map(toEffectiveRoutingPolicy(held.pools)), access);
    this.byRevision.set(revision, built);
    while (this.byRevision.size > KEPT) this.byRevision.delete(this.byRevision.keys().next().value!);
    return built;
  }

  /**
   * What an access-only change left alone between a kept revision and the current one, shared by every
   * delta read between the two (core/routing/access-change.ts).
   */
  accessChange(older: Topology, current: Topology): AccessChange {
    const known = this.changes.get(older);
    if (known?.current === current) return known.change;
    const change = new AccessChange(older, current);
    this.changes.set(older, { current, change });
    return change;
  }

  /** An older revision's topology, if still kept. */
  at(revision: number): Topology | undefined {
    return this.byRevision.get(revision);
  }

  /** After a reload the rows may differ at the same revision (changed outside the writer): start over. */
  clear(): void {
    this.byRevision.clear();
  }

  get size(): number {
    return this.byRevision.size;
  }
}
