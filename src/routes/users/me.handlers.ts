import { presentUser } from "../../schemas/users";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { changeOwnPassword, ownAccount, renameOwnAccount } from "../../services/identity/account";
import type * as routes from "./me.routes";

export const me: AppRouteHandler<typeof routes.me> = async (c) => c.json(presentUser(await ownAccount(c.var.db, userOf(c).userId)), 200);

export const updateMe: AppRouteHandler<typeof routes.updateMe> = async (c) =>
  c.json(presentUser(await renameOwnAccount(c.var.db, userOf(c).userId, c.req.valid("json").name, auditOf(c, 200))), 200);

export const changePassword: AppRouteHandler<typeof routes.changePassword> = async (c) => {
  const { currentPassword, newPassword } = c.req.valid("json");
  await changeOwnPassword(c, currentPassword, newPassword, auditOf(c, 204));
  return c.body(null, 204);
};
