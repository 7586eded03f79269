import { forbidden } from "../../lib/errors";
import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { authorizeNetwork } from "../../services/authorization";
import { type EnrolmentKeyRow, issueEnrolmentKey, revokeEnrolmentKey } from "../../services/networks/enrolment-keys";
import { listEnrolmentKeys } from "../../services/networks/views/pages";
import type * as routes from "./enrolment-keys.routes";

const present = ({ keyHash: _secret, createdBy: _creator, updatedAt: _updated, ...key }: EnrolmentKeyRow) => key;

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const networkId = c.req.valid("param").id;
  const { network } = await authorizeNetwork(c.var.db, userOf(c), networkId, "manage");
  const issued = await issueEnrolmentKey(c.var.db, network, userOf(c).userId, c.req.valid("json"), auditOf(c, 201));
  if (!issued) {
    // The write refused: the caller's authority ended after the check above. Answer as a fresh check does.
    await authorizeNetwork(c.var.db, userOf(c), networkId, "manage");
    throw forbidden("Your access to manage this network has ended");
  }
  return c.json({ ...present(issued.row), key: issued.key }, 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  const page = c.req.valid("query");
  return c.json(toPage(await listEnrolmentKeys(c.var.db, network.id, page), page.limit, present), 200);
};

export const revoke: AppRouteHandler<typeof routes.revoke> = async (c) => {
  const { id, keyId } = c.req.valid("param");
  const { network } = await authorizeNetwork(c.var.db, userOf(c), id, "manage");
  await revokeEnrolmentKey(c.var.db, network, keyId, auditOf(c, 204));
  return c.body(null, 204);
};
