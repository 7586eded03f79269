import { inBackground } from "../../lib/background";
import { getConfig } from "../../lib/env";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { confirmPasswordReset, requestPasswordReset } from "../../services/auth/password-reset";
import { platformEvent, recordAlone } from "../../services/audit/audited-batch";
import { createMailer } from "../../services/mail/mailer";
import { countAttempt } from "../../services/throttle/throttle.limiter";
import type * as routes from "./password-reset.routes";

const ACCEPTED = { message: "If an account uses this address, a reset token has been sent to it" };

export const request: AppRouteHandler<typeof routes.request> = async (c) => {
  const { email } = c.req.valid("json");
  const config = getConfig(c.env);
  // Every request counts (each may send a mail), keyed by the address asked for whether or not it exists.
  await countAttempt(c, "reset", { account: email });
  // After the answer: neither the token write nor the mail relay's latency (only known accounts pay
  // them) may show in the response time, and a failing relay cannot change the answer.
  void inBackground(c, "password reset mail", () => requestPasswordReset(c.var.db, config, createMailer(config, c.var.db), email));
  // The request changes nothing itself; its row is written alike for known and unknown addresses.
  await recordAlone(c.var.db, auditOf(c, 202), platformEvent("password-reset.requested", null));
  return c.json(ACCEPTED, 202);
};

export const confirm: AppRouteHandler<typeof routes.confirm> = async (c) => {
  const { token, newPassword } = c.req.valid("json");
  const attempt = await countAttempt(c, "reset", {});
  await confirmPasswordReset(c.var.db, getConfig(c.env), token, newPassword, auditOf(c, 204));
  await attempt.succeeded();
  return c.body(null, 204);
};
