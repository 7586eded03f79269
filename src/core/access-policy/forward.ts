import type { Cidr } from "../net/cidr";
import { formatPorts } from "./ports";
import type { AccessRule } from "./rules";
import { type AccessSubject, hostPrefix, selectedPart, selectsNode } from "./selectors";

/** A routed destination a gateway is the first hop for: a via_gateway policy's range. */
export interface RoutedDestination {
  policyId: string;
  destination: Cidr;
}

/**
 * One entry of a first hop's forward filter. Entries are read in order and the first that matches a packet
 * decides; what none matches is dropped. Denies come first, so a deny carved out of a broad allow holds
 * without subtracting prefixes (a reader sees the rule as the operator wrote it).
 */
export interface ForwardRule {
  action: "drop" | "accept";
  /** The sources' host prefixes. */
  from: string[];
  /** The parts of the routed destinations the rule names. */
  to: string[];
  ports: string[];
  /** The document's rule this entry comes from ("rules.<n>"), for counters and "why". */
  rule: number;
}

/**
 * The forward filter of the first hop of these destinations: where a source that may not reach a
 * destination behind a chain is dropped, though its route exists (AllowedIPs alone is not access control).
 */
export function forwardRules(
  nodes: readonly AccessSubject[],
  rules: readonly AccessRule[],
  destinations: readonly RoutedDestination[],
): ForwardRule[] {
  const prefixes = new Map(nodes.map((node) => [node.id, hostPrefix(node.address)]));
  const entries = (action: AccessRule["action"]) =>
    rules
      .filter((rule) => rule.action === action)
      .flatMap((rule): ForwardRule[] => {
        const to = destinations.flatMap(({ destination }) =>
          rule.dst.map((selector) => selectedPart(selector, destination)).filter((part): part is Cidr => part !== null),
        );
        if (to.length === 0) return [];
        const from = nodes.filter((node) => rule.src.some((selector) => selectsNode(selector, node, prefixes.get(node.id)!)));
        if (from.length === 0) return [];
        return [
          {
            action: action === "deny" ? "drop" : "accept",
            from: from.map((node) => prefixes.get(node.id)!.text),
            to: [...new Set(to.map((part) => part.text))],
            ports: formatPorts(rule.ports),
            rule: rule.index,
          },
        ];
      });
  return [...entries("deny"), ...entries("allow")];
}
