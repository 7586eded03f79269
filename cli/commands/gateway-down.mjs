// `wgo gateway down`: takes down everything `wgo gateway run` set up on this host: every node's interface
// and DNS server, each network's namespace and veth, and the host's table. The credential, the nodes' keys
// and held configs stay, so `wgo gateway run` brings it all back (stop the service first, or it will).
import { netnsName } from "../args.mjs";
import { removeAllDomains } from "../gateway/domain-apply.mjs";
import { stopNode } from "../gateway/node-apply.mjs";
import { DEFAULT_STATE_DIR, heldNodeIds, loadAgent } from "../gateway/state.mjs";

const USAGE = "wgo gateway down [--state-dir DIR] [--netns NS]";
/** @type {import("../args.mjs").Command} */
export const gatewayDown = {
  name: "gateway down",
  summary: "take down every node's interface and DNS server, the networks' namespaces, veths and firewall table (keys stay)",
  usage: USAGE,
  options: {
    "state-dir": {
      type: "string",
      value: "DIR",
      help: `the agent's state directory (env WGO_GATEWAY_STATE; default ${DEFAULT_STATE_DIR})`,
    },
    netns: { type: "string", value: "NS", help: "the namespace `wgo gateway run --netns` used as the host" },
  },
  async run(ctx, values) {
    const netns = netnsName(values.netns, `usage: ${USAGE}`) ?? null;
    const dir = values["state-dir"] ?? ctx.env.WGO_GATEWAY_STATE ?? DEFAULT_STATE_DIR;
    loadAgent(dir); // a directory without an agent is not a gateway's: say so instead of doing nothing
    const systemFor = (ns) => ctx.createSystem({ netns: ns ?? undefined, env: ctx.env });
    const gateway = { dir, netns, sys: systemFor(netns), systemFor };
    const nodes = heldNodeIds(dir);
    for (const nodeId of nodes) await stopNode(gateway, nodeId);
    const namespaces = await removeAllDomains(gateway);
    ctx.print(`took down ${nodes.length} node(s) and ${namespaces.length} network namespace(s)`, { nodes, namespaces });
  },
};
