import { presentUser } from "../../schemas/users";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import * as mfa from "../../services/auth/mfa";
import { finishMfaSignIn } from "../../services/auth/mfa-sign-in";
import { startMfaEnrolment, turnOffMfa, turnOnMfa } from "../../services/auth/mfa-settings";
import type * as routes from "./mfa.routes";

export const status: AppRouteHandler<typeof routes.status> = async (c) => c.json(await mfa.status(c.var.db, userOf(c).userId), 200);

export const enrol: AppRouteHandler<typeof routes.enrol> = async (c) => c.json(await startMfaEnrolment(c, auditOf(c, 200)), 200);

export const activate: AppRouteHandler<typeof routes.activate> = async (c) => {
  const { code, password } = c.req.valid("json");
  return c.json({ recoveryCodes: await turnOnMfa(c, code, password, auditOf(c, 200)) }, 200);
};

export const verify: AppRouteHandler<typeof routes.verify> = async (c) => {
  const { mfaToken, code } = c.req.valid("json");
  const pair = await finishMfaSignIn(c, mfaToken, code, auditOf(c, 200));
  return c.json({ ...pair, user: presentUser(pair.user) }, 200);
};

export const disable: AppRouteHandler<typeof routes.disable> = async (c) => {
  await turnOffMfa(c, c.req.valid("json").code, auditOf(c, 204));
  return c.body(null, 204);
};
