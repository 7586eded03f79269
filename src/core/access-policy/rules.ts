import type { FieldError } from "../../lib/errors";
import { joinPorts, NO_PORTS, type PortSet, parsePortSpec } from "./ports";
import { parseSelector, type Selector } from "./selectors";

/** A rule as the access-policy document carries it (DESIGN.md, "Access policies"). */
export interface AccessRuleText {
  action: "allow" | "deny";
  src: string[];
  dst: string[];
  ports: string[];
  expiresAt?: string | null;
  description?: string | null;
}

/** A rule ready to evaluate: its position in the document names it in answers ("rules.3"). */
export interface AccessRule {
  index: number;
  action: "allow" | "deny";
  src: Selector[];
  dst: Selector[];
  ports: PortSet;
  /** Epoch ms after which the rule is ignored; null for never. */
  expiresAt: number | null;
}

export type RulesParse = { ok: true; rules: AccessRule[] } | { ok: false; fields: FieldError[] };

function parseList<T>(
  texts: string[],
  path: string,
  parse: (text: string) => { ok: true; value: T } | { ok: false; reason: string },
  fields: FieldError[],
) {
  const values: T[] = [];
  texts.forEach((text, i) => {
    const parsed = parse(text);
    if (parsed.ok) values.push(parsed.value);
    else fields.push({ path: `${path}.${i}`, message: `${JSON.stringify(text)}: ${parsed.reason}` });
  });
  if (texts.length === 0) fields.push({ path, message: "Name at least one" });
  return values;
}

/** Every malformed selector, port and date is reported with its path, not only the first. */
export function parseRules(texts: AccessRuleText[], pathPrefix = "rules"): RulesParse {
  const fields: FieldError[] = [];
  const rules = texts.map((text, index): AccessRule => {
    const path = `${pathPrefix}.${index}`;
    const src = parseList(text.src, `${path}.src`, parseSelector, fields);
    const dst = parseList(text.dst, `${path}.dst`, parseSelector, fields);
    const ports = parseList(text.ports, `${path}.ports`, parsePortSpec, fields).reduce(joinPorts, NO_PORTS);
    let expiresAt: number | null = null;
    if (text.expiresAt != null) {
      expiresAt = Date.parse(text.expiresAt);
      if (Number.isNaN(expiresAt)) fields.push({ path: `${path}.expiresAt`, message: "Expected an RFC 3339 date-time" });
    }
    return { index, action: text.action, src, dst, ports, expiresAt };
  });
  return fields.length > 0 ? { ok: false, fields } : { ok: true, rules };
}

/** The rules in force at `now`: an expired rule is as if it were not written. */
export const rulesInForce = (rules: readonly AccessRule[], now: number) =>
  rules.filter((rule) => rule.expiresAt === null || rule.expiresAt > now);

/** When the rules in force next change by themselves (the writer recompiles then), or null. */
export function nextExpiry(rules: readonly AccessRule[], now: number): number | null {
  let next: number | null = null;
  for (const rule of rules)
    if (rule.expiresAt !== null && rule.expiresAt > now && (next === null || rule.expiresAt < next)) next = rule.expiresAt;
  return next;
}
