// `wgo access show` and `wgo access check`: a network's access policy and "why can(not) X reach Y", for the
// signed-in account (members of the network's group, viewer and up). The server decides; these only ask
// (GET /networks/{id}/access-policy and /access-check, docs/access.md).
import { UsageError } from "../errors.mjs";
import { userRequest } from "../session.mjs";

const SHOW_USAGE = "wgo access show --network NET_ID";
const CHECK_USAGE = "wgo access check --network NET_ID --from NODE_ID --to NODE_ID|ADDRESS --port icmp|tcp:443|udp:53";

/** @type {import("../args.mjs").OptionSpec} */
const network = { type: "string", value: "NET_ID", help: "the network (`wgo networks` lists them)" };

/** One rule as a line: `allow tag:dev -> tag:web tcp:443 (until …) "note"`. */
export function describeRule(rule) {
  const until = rule.expiresAt ? ` (until ${rule.expiresAt})` : "";
  const note = rule.description ? ` "${rule.description}"` : "";
  return `${rule.action} ${rule.src.join(",")} -> ${rule.dst.join(",")} ${rule.ports.join(",")}${until}${note}`;
}

/** @type {import("../args.mjs").Command} */
export const accessShow = {
  name: "access show",
  summary: "a network's access mode, policy revision, rules and tests",
  usage: SHOW_USAGE,
  options: { network },
  required: ["network"],
  async run(ctx, values) {
    const policy = await userRequest(ctx, { method: "GET", path: `/networks/${encodeURIComponent(values.network)}/access-policy` });
    const enforced = policy.mode === "policy" ? "enforced (deny by default)" : "stored, not enforced: the network is open";
    const lines = [`${policy.networkId}: access mode ${policy.mode}, revision ${policy.revision}, ${enforced}`];
    for (const [index, rule] of policy.rules.entries()) lines.push(`  rule ${index}: ${describeRule(rule)}`);
    for (const test of policy.tests) lines.push(`  test: ${test.src} -> ${test.dst} ${test.port} expects ${test.expect}`);
    if (policy.rules.length === 0) lines.push("  no rules");
    ctx.print(lines.join("\n"), policy);
  },
};

/** @type {import("../args.mjs").Command} */
export const accessCheck = {
  name: "access check",
  summary: "whether one flow is allowed now, and the rule that decided",
  usage: CHECK_USAGE,
  options: {
    network,
    from: { type: "string", value: "NODE_ID", help: "the sending node" },
    to: { type: "string", value: "NODE_ID|ADDRESS", help: "the receiving node, or one address (a node's or a routed host's)" },
    port: { type: "string", value: "FLOW", help: "icmp, tcp:PORT or udp:PORT" },
  },
  required: ["network", "from", "to", "port"],
  async run(ctx, values) {
    if (!/^(icmp|(tcp|udp):\d{1,5})$/.test(values.port)) {
      throw new UsageError(`--port ${values.port}: expected icmp, tcp:PORT or udp:PORT`, `usage: ${CHECK_USAGE}`);
    }
    const query = new URLSearchParams({ src: values.from, dst: values.to, port: values.port });
    const path = `/networks/${encodeURIComponent(values.network)}/access-check?${query}`;
    const decision = await userRequest(ctx, { method: "GET", path });
    const verdict = decision.allowed ? "allowed" : "denied";
    const why = decision.rule
      ? `by rule ${decision.rule.index}: ${describeRule(decision.rule)}`
      : decision.allowed
        ? "(the network is open)"
        : "(no rule allows it: policy mode denies by default)";
    ctx.print(`${values.from} -> ${values.to} ${values.port}: ${verdict} ${why}`, decision);
  },
};
