import { getConfig } from "../../lib/env";
import { userOf } from "../../lib/principal";
import { presentUser } from "../../schemas/users";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { passwordSignIn } from "../../services/auth/login";
import { revokeSession, rotateRefreshToken } from "../../services/auth/sessions";
import type * as routes from "./auth.routes";
import { presentSignIn } from "./auth.schemas";

export const login: AppRouteHandler<typeof routes.login> = async (c) => {
  const { email, password } = c.req.valid("json");
  return c.json(presentSignIn(await passwordSignIn(c, email, password, auditOf(c, 200))), 200);
};

export const refresh: AppRouteHandler<typeof routes.refresh> = async (c) => {
  const pair = await rotateRefreshToken(c.var.db, getConfig(c.env), c.req.valid("json").refreshToken, auditOf(c, 200));
  return c.json({ ...pair, user: presentUser(pair.user) }, 200);
};

export const logout: AppRouteHandler<typeof routes.logout> = async (c) => {
  await revokeSession(c.var.db, userOf(c).sessionId, "logout", auditOf(c, 204));
  return c.body(null, 204);
};
