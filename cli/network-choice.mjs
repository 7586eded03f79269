// `wgo up --network NAME_OR_ID`: the network's id, or an exact name among the networks the account can
// see. Names are unique per group, not overall, so a name can be ambiguous: then the ids decide.
import { OperationError } from "./errors.mjs";

const LISTED = 20; // enough to pick from; a longer list is what `wgo networks` is for

/**
 * @param {Array<{ id: string, name: string, groupId?: string, cidr?: string }>} networks
 * @param {string} wanted
 */
export function chooseNetwork(networks, wanted) {
  const byId = networks.find((network) => network.id === wanted);
  if (byId) return byId;
  const named = networks.filter((network) => network.name === wanted);
  if (named.length === 1) return named[0];
  if (named.length > 1) {
    throw new OperationError(`"${wanted}" names ${named.length} networks you can see: ${choices(named)}; pass one's id as --network`, {
      code: "ambiguous_network",
    });
  }
  if (networks.length === 0) {
    throw new OperationError(
      `no network "${wanted}": this account sees no networks; ask a group owner to add you to a group that has one`,
      { code: "unknown_network" },
    );
  }
  throw new OperationError(`no network "${wanted}" among the ${networks.length} this account can see: ${choices(networks)}`, {
    code: "unknown_network",
  });
}

function choices(networks) {
  const shown = networks.slice(0, LISTED).map((n) => `${n.name} (${n.id}${n.groupId ? `, group ${n.groupId}` : ""})`);
  const more = networks.length > LISTED ? `, and ${networks.length - LISTED} more (\`wgo networks\`)` : "";
  return `${shown.join(", ")}${more}`;
}
