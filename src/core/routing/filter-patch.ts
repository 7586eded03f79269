import type { InboundRule } from "../access-policy/compile";
import { parseAddress } from "../net/ipam";
import { compareBigInt } from "./ordering";

/**
 * An inbound filter's change (docs/access.md, "Deltas"), entry by entry in the new filter's order. An entry
 * whose ports the held filter also had comes as the source prefixes it gains and loses (none: unchanged);
 * any other comes whole. A one-rule change that moves one source thus costs that source's prefix, not the
 * filter of a server every team may reach (9 KiB at 10,000 nodes when sent whole).
 */
export interface InboundRulePatch {
  ports: string[];
  /** The entry whole: its ports are new to the filter. */
  from?: string[];
  fromAdded?: string[];
  fromRemoved?: string[];
}

const portsKey = (ports: string[]) => ports.join(",");

/** A filter's entries by ports; null when two share their ports (then only the whole filter is exact). */
function byPorts(rules: InboundRule[]): Map<string, InboundRule> | null {
  const entries = new Map(rules.map((rule) => [portsKey(rule.ports), rule]));
  return entries.size === rules.length ? entries : null;
}

/** The patch from `held` to `next`, or null when sending `next` whole is exact and no longer. */
export function patchInboundRules(held: InboundRule[], next: InboundRule[]): InboundRulePatch[] | null {
  const before = byPorts(held);
  if (!before || !byPorts(next)) return null;
  const patch = next.map((entry): InboundRulePatch => {
    const old = before.get(portsKey(entry.ports));
    if (!old) return { ports: entry.ports, from: entry.from };
    const had = new Set(old.from);
    const has = new Set(entry.from);
    const fromAdded = entry.from.filter((prefix) => !had.has(prefix));
    const fromRemoved = old.from.filter((prefix) => !has.has(prefix));
    return fromAdded.length + fromRemoved.length === 0 ? { ports: entry.ports } : { ports: entry.ports, fromAdded, fromRemoved };
  });
  return JSON.stringify(patch).length < JSON.stringify(next).length ? patch : null;
}

/** Source prefixes in the compiler's order: by address as a number (access-policy/compile.ts). */
const prefixValue = (prefix: string) => parseAddress(prefix.split("/")[0] ?? "")?.value ?? -1n;

/** The filter a patch leads to from `held`. Refuses a patch that edits an entry `held` does not have. */
export function applyInboundPatch(held: InboundRule[], patch: InboundRulePatch[]): InboundRule[] {
  const before = new Map(held.map((rule) => [portsKey(rule.ports), rule]));
  return patch.map((entry) => {
    if (entry.from) return { ports: entry.ports, from: entry.from };
    const old = before.get(portsKey(entry.ports));
    if (!old) throw new Error(`The filter patch edits ports ${portsKey(entry.ports)}, which the held filter lacks`);
    const removed = new Set(entry.fromRemoved ?? []);
    const from = [...old.from.filter((prefix) => !removed.has(prefix)), ...(entry.fromAdded ?? [])];
    from.sort((a, b) => compareBigInt(prefixValue(a), prefixValue(b)));
    return { ports: entry.ports, from };
  });
}
