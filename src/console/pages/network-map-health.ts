import type { Schema } from "../../../client/index.ts";
import { AWAITING_AGENT, type ChainMember } from "./chain-model";

/** How a state is drawn: green fine, red a fault, grey waiting or not known (a next step, not a fault). */
export type Tone = "ok" | "bad" | "muted";

/** One node's health as the map says it: a word (screen readers, the lists) and its colour. */
export interface Health {
  word: string;
  tone: Tone;
}

type Node = Pick<Schema<"Node">, "id" | "roles" | "publicKey" | "lastSeenAt" | "redacted">;
type Status = Schema<"RuntimeStatus">;

/**
 * A node's health from what the API hands every reader: another member's device is not shown (its last-seen
 * time is its owner's), an agent that could not apply its config is failing, a gateway whose agent never
 * reported (or never registered its key) is awaiting agent, and otherwise the last heartbeat or report
 * against OFFLINE_AFTER_SECONDS, the same cut-off the presence detector and its notifications use.
 */
export function nodeHealth(node: Node, status: Status | undefined, now: number, offlineAfterMs: number): Health {
  if (node.redacted) return { word: "not shown", tone: "muted" };
  const failing = status?.routing.failing.find((entry) => entry.nodeId === node.id);
  if (failing) return { word: `failing: ${failing.error}`, tone: "bad" };
  const gateway = node.roles.includes("gateway");
  if (gateway && (node.publicKey === null || node.lastSeenAt === null)) return { word: AWAITING_AGENT, tone: "muted" };
  if (node.lastSeenAt === null) return { word: "never seen", tone: "muted" };
  return now - Date.parse(node.lastSeenAt) <= offlineAfterMs ? { word: "online", tone: "ok" } : { word: "offline", tone: "bad" };
}

/** A pool or hop member's health as the chain picture says it (chain-model.ts), in the map's tones. */
export const memberHealth = (member: Pick<ChainMember, "health" | "healthy">): Health => ({
  word: member.health,
  tone: member.healthy ? "ok" : member.health === "drained" || member.health === AWAITING_AGENT ? "muted" : "bad",
});

/** Online, or healthy in its chain: what the counts call "online". */
export const isUp = (health: Health) => health.tone === "ok";
