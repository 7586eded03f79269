// `wgo login` and `wgo logout`: the user's session, used to enrol devices with the user's own rights.
import { OperationError, UsageError } from "../errors.mjs";
import { paths } from "../files.mjs";
import { apiRequest } from "../http.mjs";
import { forgetSession, loadSession, saveSession, userRequest } from "../session.mjs";
import { readHiddenLine, readAllStdin } from "../terminal.mjs";

const LOGIN_USAGE = "wgo login --email EMAIL [--password PASSWORD | --password-stdin] [--totp CODE]";

async function password(ctx, values) {
  if (values.password !== undefined && values["password-stdin"]) {
    throw new UsageError("give --password or --password-stdin, not both", `usage: ${LOGIN_USAGE}`);
  }
  if (values.password !== undefined) return values.password;
  if (values["password-stdin"]) return (await readAllStdin(ctx.stdin)).replace(/\r?\n$/, "");
  if (ctx.stdin.isTTY) return readHiddenLine(ctx.stdin, ctx.stderr, "password: ");
  throw new UsageError("no password: give --password-stdin (or --password) when not on a terminal", `usage: ${LOGIN_USAGE}`);
}

/** @type {import("../args.mjs").Command} */
export const login = {
  name: "login",
  summary: "sign in and keep the session in <home>/session.json (0600)",
  usage: LOGIN_USAGE,
  options: {
    email: { type: "string", value: "EMAIL", help: "account email" },
    password: { type: "string", value: "PASSWORD", help: "password (visible in `ps`: prefer --password-stdin)" },
    "password-stdin": { type: "boolean", help: "read the password from standard input" },
    totp: { type: "string", value: "CODE", help: "MFA code (authenticator or recovery code) when the account has MFA on" },
  },
  required: ["email"],
  async run(ctx, values) {
    const secret = await password(ctx, values);
    if (!secret) throw new UsageError("the password is empty", `usage: ${LOGIN_USAGE}`);
    const api = ctx.api ?? loadSession(ctx.home)?.api ?? ctx.defaultApi;
    let answer = await apiRequest({ api, path: "/auth/login", body: { email: values.email, password: secret } });
    if (answer.mfaRequired) {
      if (!values.totp) {
        throw new OperationError(
          "MFA is required for this account: run `wgo login` again with --totp CODE (authenticator or recovery code)",
        );
      }
      answer = await apiRequest({ api, path: "/auth/mfa/verify", body: { mfaToken: answer.mfaToken, code: values.totp } });
    }
    const session = saveSession(ctx.home, api, answer, ctx.now());
    ctx.print(`logged in to ${api} as ${answer.user?.email ?? values.email}; session saved in ${paths.session(ctx.home)}`, {
      api,
      email: answer.user?.email ?? values.email,
      expiresAt: session.expiresAt,
      session: paths.session(ctx.home),
    });
  },
};

/** @type {import("../args.mjs").Command} */
export const logout = {
  name: "logout",
  summary: "end the session on the server and remove <home>/session.json",
  usage: "wgo logout",
  options: {},
  async run(ctx) {
    const session = loadSession(ctx.home);
    if (!session) {
      ctx.print("not logged in", { loggedOut: false });
      return;
    }
    try {
      await userRequest(ctx, { path: "/auth/logout" });
    } finally {
      forgetSession(ctx.home); // even if the server is gone: the local copy of the tokens must not stay
    }
    ctx.print(`logged out of ${session.api}`, { loggedOut: true, api: session.api });
  },
};
