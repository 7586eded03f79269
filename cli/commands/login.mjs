// `wgo login` and `wgo logout`: the user's session, used to enrol devices with the user's own rights.
import { paths } from "../files.mjs";
import { forgetSession, loadSession, userRequest } from "../session.mjs";
import { readPassword, signIn } from "../sign-in.mjs";

const LOGIN_USAGE = "wgo login --email EMAIL [--password PASSWORD | --password-stdin] [--totp CODE]";

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
    const secret = await readPassword(ctx, values, `usage: ${LOGIN_USAGE}`);
    const api = ctx.api ?? loadSession(ctx.home)?.api ?? ctx.defaultApi;
    const { session, email } = await signIn(ctx, api, { email: values.email, password: secret, totp: values.totp }, "wgo login");
    ctx.print(`logged in to ${api} as ${email}; session saved in ${paths.session(ctx.home)}`, {
      api,
      email,
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
