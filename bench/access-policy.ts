// The access policy the access bench measures (issue 26): 500 rules, the cap, over a network of laptops,
// servers and a few monitors, as an operator would write it: a rule per team (tags), service-to-database
// rules, one monitoring rule, per-person grants (node ids), grants to overlay address ranges (CIDRs) and
// a few denies. Used in-process (bench/access-compile.ts) and through the Worker (bench/access-worker.ts).
import type { AccessRuleText } from "../src/core/access-policy/rules";

export const TEAMS = 25;
/** Per-person grants (node:… → node:…); they make the most classes: each names one laptop and one server. */
const GRANTS = 400;
const RANGES = 40;

/** Nodes whose place the bench needs to know: the laptop whose config is read, and the one-rule change's three. */
export const SPECIAL = { probe: 5, grantee: 17, before: 20, after: 30 } as const;
/** The grants the probe laptop holds to servers of other teams: with its team's servers and the monitors, ~50 peers. */
const PROBE_GRANTS = 5;

export type Role = "monitor" | "server" | "laptop";
/** Role by creation index: three monitors, every tenth node a server (40 a team at 10,000), the rest laptops. */
export const roleOf = (i: number): Role => (i < 3 ? "monitor" : i % 10 === 0 ? "server" : "laptop");
const teamOf = (i: number) => Math.floor(i / 10) % TEAMS;

export function tagsOf(i: number): string[] {
  const role = roleOf(i);
  if (role === "monitor") return ["tag:monitor"];
  if (role === "laptop") return [`tag:dev-${teamOf(i)}`];
  const tags = [`tag:svc-${teamOf(i)}`];
  if (Math.floor(i / 10) % 10 === 0) tags.push("tag:db");
  if (i % 20 === 0) tags.push("tag:prod");
  return tags;
}

export interface PlacedNode {
  /** Creation index: decides the role and tags. */
  index: number;
  id: string;
  address: string;
}

/** The /26 an IPv4 address lies in. */
const sliceOf = (address: string) => {
  const [a, b, c, d] = address.split(".").map(Number) as [number, number, number, number];
  return `${a}.${b}.${c}.${d & 0xc0}/26`;
};

/**
 * The 500 rules over these nodes. `grantTarget` names the server the grantee's grant reaches: the
 * one-rule change moves it from SPECIAL.before to SPECIAL.after (three nodes' peers change).
 */
export function benchPolicy(nodes: readonly PlacedNode[], grantTarget: "before" | "after" = "before"): AccessRuleText[] {
  const byIndex = new Map(nodes.map((node) => [node.index, node]));
  const special = new Set<number>(Object.values(SPECIAL));
  const laptops = nodes.filter((n) => roleOf(n.index) === "laptop" && !special.has(n.index));
  const servers = nodes.filter((n) => roleOf(n.index) === "server" && !special.has(n.index));
  const rules: AccessRuleText[] = [];
  for (let k = 0; k < TEAMS; k++)
    rules.push({ action: "allow", src: [`tag:dev-${k}`], dst: [`tag:svc-${k}`], ports: ["tcp:443", "tcp:22"] });
  for (let k = 0; k < TEAMS; k++) rules.push({ action: "allow", src: [`tag:svc-${k}`], dst: ["tag:db"], ports: ["tcp:5432"] });
  rules.push({ action: "allow", src: ["tag:monitor"], dst: ["*"], ports: ["icmp", "udp:161"], description: "monitoring" });

  // Address ranges: /26s of the overlay that hold none of the special nodes (the probe's peers stay its team's).
  const avoided = new Set([...special].flatMap((i) => (byIndex.has(i) ? [sliceOf(byIndex.get(i)!.address)] : [])));
  const slices = [...new Set(nodes.map((n) => sliceOf(n.address)))].filter((s) => !avoided.has(s)).sort();
  const ranges = Array.from({ length: RANGES }, (_, j) => slices[(j * 3) % Math.max(1, slices.length)] ?? "10.255.255.0/26");
  ranges.forEach((range, j) => {
    rules.push({ action: "allow", src: [range], dst: [`tag:svc-${j % TEAMS}`], ports: ["udp:5000-5100"] });
  });

  const id = (index: number) => `node:${byIndex.get(index)!.id}`;
  const otherTeamServer = (j: number) => servers.find((s) => teamOf(s.index) === (j + 1) % TEAMS) ?? servers[0]!;
  for (let j = 0; j < GRANTS; j++) {
    let src: string;
    let dst: string;
    if (j < PROBE_GRANTS) [src, dst] = [id(SPECIAL.probe), `node:${otherTeamServer(j).id}`];
    else if (j === PROBE_GRANTS) [src, dst] = [id(SPECIAL.grantee), id(grantTarget === "before" ? SPECIAL.before : SPECIAL.after)];
    else [src, dst] = [`node:${laptops[(j * 37) % laptops.length]!.id}`, `node:${servers[(j * 13) % servers.length]!.id}`];
    rules.push({ action: "allow", src: [src], dst: [dst], ports: ["tcp:8080"] });
  }

  rules.push({ action: "deny", src: ["*"], dst: ["tag:db"], ports: ["tcp:22"], description: "no shells on databases" });
  for (let k = 0; k < 4; k++) rules.push({ action: "deny", src: [`tag:dev-${k}`], dst: ["tag:prod"], ports: ["tcp:22"] });
  for (let j = 0; j < 4; j++) rules.push({ action: "deny", src: [ranges[j]!], dst: ["tag:prod"], ports: ["*"] });
  return rules;
}

/** The rule the one-rule change rewrites (the grantee's grant), by position. */
export const CHANGED_RULE = 2 * TEAMS + 1 + RANGES + PROBE_GRANTS;
