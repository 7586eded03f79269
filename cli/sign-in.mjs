// Signing in: the password from a flag, standard input or a no-echo prompt, then POST /auth/login (and
// the MFA step when the account has it on). Shared by `wgo login` and `wgo up --network`.
import { OperationError, UsageError } from "./errors.mjs";
import { apiRequest } from "./http.mjs";
import { saveSession } from "./session.mjs";
import { readAllStdin, readHiddenLine } from "./terminal.mjs";

/** --password, --password-stdin, else a prompt with echo off when standard input is a terminal. */
export async function readPassword(ctx, values, usage) {
  if (values.password !== undefined && values["password-stdin"]) {
    throw new UsageError("give --password or --password-stdin, not both", usage);
  }
  let secret;
  if (values.password !== undefined) secret = values.password;
  else if (values["password-stdin"]) secret = (await readAllStdin(ctx.stdin)).replace(/\r?\n$/, "");
  else if (ctx.stdin.isTTY) secret = await readHiddenLine(ctx.stdin, ctx.stderr, "password: ");
  else throw new UsageError("no password: give --password-stdin (or --password) when not on a terminal", usage);
  if (!secret) throw new UsageError("the password is empty", usage);
  return secret;
}

/**
 * Logs in to `api` and saves the session (0600). @returns {Promise<{ session: import("./session.mjs").Session, email: string }>}
 * @param {any} ctx
 * @param {string} api
 * @param {{ email: string, password: string, totp?: string }} credentials
 * @param {string} command what to run again with --totp (`wgo login`, `wgo up`)
 */
export async function signIn(ctx, api, { email, password, totp }, command) {
  let answer = await apiRequest({
    api,
    path: "/auth/login",
    body: /** @satisfies {import("./api-types.js").RequestBody<"/auth/login", "post">} */ ({ email, password }),
  });
  if (answer.mfaRequired) {
    if (!totp) {
      throw new OperationError(
        `MFA is required for this account: run \`${command}\` again with --totp CODE (authenticator or recovery code)`,
      );
    }
    answer = await apiRequest({
      api,
      path: "/auth/mfa/verify",
      body: /** @satisfies {import("./api-types.js").RequestBody<"/auth/mfa/verify", "post">} */ ({
        mfaToken: answer.mfaToken,
        code: totp,
      }),
    });
  }
  const signedInAs = answer.user?.email ?? email;
  return { session: saveSession(ctx.home, api, answer, ctx.now(), signedInAs), email: signedInAs };
}
