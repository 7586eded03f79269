// A delta's `accessRulesPatch` (docs/access.md, "Deltas"): the inbound filter's change entry by entry, in the
// new filter's order. An entry with `from` is whole; otherwise it edits the held entry with the same ports by
// the source prefixes it gains and loses. Sources end in the server's order: by address as a number.
import { parsePrefix } from "./cidr.mjs";
import { OperationError } from "./errors.mjs";

/** @typedef {{ ports: string[], from: string[] }} InboundRule */
/** @typedef {{ ports: string[], from?: string[], fromAdded?: string[], fromRemoved?: string[] }} InboundRulePatch */

const portsKey = (/** @type {string[]} */ ports) => ports.join(",");

/**
 * @param {InboundRule[] | undefined} held the filter of the held config
 * @param {InboundRulePatch[]} patch
 * @returns {InboundRule[]}
 */
export function applyInboundPatch(held, patch) {
  if (!Array.isArray(held)) throw new OperationError("the delta patches an inbound filter the held config does not have");
  const before = new Map(held.map((rule) => [portsKey(rule.ports), rule]));
  return patch.map((entry) => {
    if (entry.from) return { ports: entry.ports, from: entry.from };
    const old = before.get(portsKey(entry.ports));
    if (!old) throw new OperationError(`the delta edits the filter's ports ${portsKey(entry.ports)}, which the held config lacks`);
    const removed = new Set(entry.fromRemoved ?? []);
    const keyed = [...old.from.filter((prefix) => !removed.has(prefix)), ...(entry.fromAdded ?? [])].map((prefix) => ({
      prefix,
      value: parsePrefix(prefix).value,
    }));
    keyed.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    return { ports: entry.ports, from: keyed.map(({ prefix }) => prefix) };
  });
}
