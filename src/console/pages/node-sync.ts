import type { Schema } from "../../../client/index.ts";

type Status = Schema<"RuntimeStatus">;

/** One node's state against the desired revision: what the status page shows in words. */
export interface NodeSync {
  state: "in sync" | "lagging" | "unreported" | "failing" | "unknown" | "not a DNS server" | "not shown";
  detail?: string;
}

/** Another member's device: the API leaves it out of the status's lists, so nothing can be said of it. */
const NOT_SHOWN: NodeSync = { state: "not shown", detail: "another member's device: its reports are its owner's and the group admins'" };

/**
 * Routing per node, from the network's runtime status: failing (its agent could not apply; with the error)
 * first, then never reported, then behind the desired revision; any other node runs the desired revision.
 */
export function routingSyncOf(status: Status, node: Pick<Schema<"Node">, "id" | "redacted">): NodeSync {
  if (node.redacted) return NOT_SHOWN;
  const nodeId = node.id;
  const failing = status.routing.failing.find((entry) => entry.nodeId === nodeId);
  if (failing) return { state: "failing", detail: failing.error };
  if (status.routing.unreported.includes(nodeId)) return { state: "unreported", detail: "never reported an applied revision" };
  if (status.routing.lagging.includes(nodeId)) return { state: "lagging", detail: `behind revision ${status.routing.desiredRevision}` };
  return { state: "in sync", detail: `runs revision ${status.routing.desiredRevision}` };
}

/**
 * DNS is served by gateway nodes only. The API names lagging gateways and the oldest revision served; a
 * gateway that never reported routing has not reported DNS either (one agent report carries both); beyond
 * that, while some gateway has not reported DNS, the API does not say which, and neither does this page.
 */
export function dnsSyncOf(status: Status, node: Pick<Schema<"Node">, "id" | "roles" | "redacted">): NodeSync {
  if (!node.roles.includes("gateway")) return { state: "not a DNS server" };
  if (node.redacted) return NOT_SHOWN;
  if (status.dns.lagging.includes(node.id)) return { state: "lagging", detail: `behind revision ${status.dns.desiredRevision}` };
  if (status.dns.inSync) return { state: "in sync", detail: `serves revision ${status.dns.desiredRevision}` };
  if (status.routing.unreported.includes(node.id)) return { state: "unreported" };
  return { state: "unknown", detail: "some gateway has not reported its DNS revision" };
}

/** Green in sync, red failing or behind, amber waiting; "not a DNS server" is normal, so it is not painted. */
export const syncClass = (sync: NodeSync) => {
  if (sync.state === "not a DNS server") return undefined;
  return sync.state === "in sync" ? "status-ok" : sync.state === "failing" || sync.state === "lagging" ? "status-bad" : "status-warn";
};
