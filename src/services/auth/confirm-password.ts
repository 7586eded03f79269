import type { Context } from "hono";
import { domainError } from "../../lib/errors";
import type { AppEnv } from "../../lib/types";
import { countAttempt } from "../throttle/throttle.limiter";
import { verifyPassword } from "./password";

/**
 * Re-checks the account's password before a change a stolen access token alone must not make (a new
 * password, turning MFA on). Counted like sign-in attempts, so the token cannot become a guessing oracle.
 */
export async function confirmPassword(
  c: Context<AppEnv>,
  user: { email: string; passwordHash: string | null },
  password: string,
  label: string,
): Promise<void> {
  if (!user.passwordHash) throw domainError("The account has no password yet; set one with the password-reset flow");
  const attempt = await countAttempt(c, "login", { account: user.email });
  if (!(await verifyPassword(password, user.passwordHash))) throw domainError(`The ${label} is not correct`);
  await attempt.succeeded();
}
