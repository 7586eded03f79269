// `wgo networks`: the networks the signed-in account can see, with the ids `wgo enrol --network` takes
// (enrolling needs the member role or above in the network's group).
import { userRequest } from "../session.mjs";

const USAGE = "wgo networks";

/** Every page of GET /networks (200 a page), in the API's order; also what `wgo up --network NAME` picks from. */
export async function allNetworks(ctx) {
  const networks = [];
  let cursor = null;
  do {
    const query = new URLSearchParams({ limit: "200", ...(cursor ? { cursor } : {}) });
    const page = await userRequest(ctx, { method: "GET", path: `/networks?${query}` });
    networks.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return networks;
}

/** @type {import("../args.mjs").Command} */
export const networks = {
  name: "networks",
  summary: "list the networks your account can see: id, name, CIDR, DNS domain (the id is what `wgo enrol --network` takes)",
  usage: USAGE,
  options: {},
  async run(ctx) {
    const found = await allNetworks(ctx);
    if (found.length === 0) ctx.print("no networks: ask a group owner to add you to a group that has one", { networks: [] });
    for (const network of found) {
      const summary = { id: network.id, name: network.name, cidr: network.cidr, dnsDomain: network.dnsDomain, groupId: network.groupId };
      ctx.print(`${network.id}  ${network.name}  ${network.cidr}  ${network.dnsDomain}`, summary);
    }
  },
};
