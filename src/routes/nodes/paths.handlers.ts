import { notFound, unauthorized } from "../../lib/errors";
import { deviceOrUserOf } from "../../lib/principal";
import type { AppRouteHandler, DeviceStanding } from "../../lib/types";
import { unwrap } from "../../lib/write-result";
import { devicePeersSeen, authorizeNodeDetail } from "../../services/networks/device-node-privacy";
import { networkWriter } from "../../objects/network/client";
import type * as routes from "./paths.routes";

/** A device reads its own node's paths with its credential; a user as they would read the node's config. */
export const paths: AppRouteHandler<typeof routes.paths> = async (c) => {
  const principal = deviceOrUserOf(c);
  const nodeId = c.req.valid("param").id;
  if (principal.kind === "device") {
    const node = ownNode(principal.standing, nodeId);
    return c.json(await unwrap(networkWriter(c.env, node.networkId).readPaths(node.networkId, node.id, null)), 200);
  }
  // A gateway's or a server's peers include other members' devices: their entries are their owners' (round 3).
  const access = await authorizeNodeDetail(c.var.db, principal, nodeId);
  const seen = await devicePeersSeen(c.var.db, principal, access);
  return c.json(await unwrap(networkWriter(c.env, access.node.networkId).readPaths(access.node.networkId, nodeId, seen)), 200);
};

/** As the device's own requests are checked (services/networks/device-authorization.ts): its node only, while its owner still holds devices. */
function ownNode(standing: DeviceStanding | null, nodeId: string) {
  if (!standing || standing.node.id !== nodeId) throw notFound("Node");
  if (!standing.ownerHolds) throw unauthorized("The device's owner no longer has access to this network");
  return standing.node;
}
