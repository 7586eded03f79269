import type { Schema } from "../../../client/index.ts";

/** One box of a policy's chain picture, and the sentence a screen reader hears for it. */
export interface ChainMember {
  name: string;
  active: boolean;
  /** healthy | drained | awaiting agent | unhealthy: <reason> | unknown (status not readable) */
  health: string;
  healthy: boolean | null;
}
export interface ChainBox {
  kind: "source" | "hop" | "destination";
  title: string;
  /** transit | egress for hops (the node's place on the path, as routingIntent names it). */
  role?: "transit" | "egress";
  members: ChainMember[];
}

type Status = Schema<"RoutingPolicyStatus">;
type Member = Status["hops"][number]["members"][number];

/** A member whose agent never reported is not broken, it is waiting: no red "stale report" for it. */
export const AWAITING_AGENT = "awaiting agent";

const healthOf = (member: Member) => {
  if (member.healthy && member.heldDownUntil) return "healthy, held down";
  if (member.healthy) return "healthy";
  if (member.drained) return "drained";
  if (member.reason === "stale report" && member.lastSeenAt === null) return AWAITING_AGENT;
  return `unhealthy${member.reason ? `: ${member.reason}` : ""}`;
};

/**
 * The chain of a via_gateway policy: the sources (every node the policy applies to), each hop in path order
 * (a pool hop with all its members, which one is active and each one's health, from the policy's status),
 * then the destination. Without a status (it could not be read) the hops come from the policy's path alone.
 */
export function chainOf(policy: Schema<"RoutingPolicy">, status: Status | undefined, names: Map<string, string>): ChainBox[] {
  const name = (id: string) => names.get(id) ?? id;
  const last = policy.gatewayPath.length - 1;
  const hops = policy.gatewayPath.map((hopId, index): ChainBox => {
    const hop = status?.hops.find((entry) => entry.index === index);
    const role = index === last ? "egress" : "transit";
    if (!hop) return { kind: "hop", title: name(hopId), role, members: [] };
    const members = hop.members.map((member) => ({
      name: name(member.nodeId),
      active: member.nodeId === hop.activeNodeId,
      health: healthOf(member),
      healthy: member.healthy,
    }));
    const title = hop.poolId ? `pool ${name(hop.poolId)}` : name(hop.activeNodeId);
    return { kind: "hop", title, role, members: hop.poolId ? members : members.filter((member) => member.active) };
  });
  return [{ kind: "source", title: "Source", members: [] }, ...hops, { kind: "destination", title: policy.destinationCidr, members: [] }];
}

/** What one box says in words: "gw1 (healthy, active), transit" or "pool edge: gw2 (healthy, active), gw3 (…)". */
export function describeBox(box: ChainBox): string {
  if (box.kind === "source") return "source: the network's nodes that use this policy";
  if (box.kind === "destination") return `destination ${box.title}`;
  const member = (entry: ChainMember) => `${entry.name} (${entry.health}${entry.active ? ", active" : ", standby"})`;
  const role = box.role ? `, ${box.role}` : "";
  if (box.members.length === 0) return `${box.title} (health unknown)${role}`;
  if (box.title.startsWith("pool ")) return `${box.title}: ${box.members.map(member).join(", ")}${role}`;
  return `${box.members.map(member).join(", ")}${role}`;
}
