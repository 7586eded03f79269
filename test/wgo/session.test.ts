// Login, MFA, and the token rules: refresh when under 60 s are left, and on a 401 refresh once and
// retry once. The user token is exercised through `wgo enrol`, the one command that sends it.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { envelope, startFakeApi, type FakeApi, type FakeRoute } from "./support/fake-api.ts";
import { runWgo, tempHome } from "./support/cli.ts";
import { enrolled, newNetworkState, startDeviceApi } from "./support/device-api.ts";

const NOW = Date.parse("2026-11-21T10:00:00.000Z");
const pair = (n: number, expiresIn = 900) => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-${n}`,
  tokenType: "Bearer",
  expiresIn,
  user: { email: "ada@e.test" },
});

let api: FakeApi | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function home() {
  const made = tempHome();
  cleanups.push(made.remove);
  return made.home;
}

const session = (dir: string) => JSON.parse(readFileSync(join(dir, "session.json"), "utf8"));
const mode = (path: string) => statSync(path).mode & 0o777;

describe("wgo login", () => {
  it("stores {api, accessToken, refreshToken, expiresAt, email} 0600 in a home it creates 0700", async () => {
    api = await startFakeApi({ "POST /auth/login": () => ({ status: 200, body: pair(1) }) });
    const dir = home();
    const result = await runWgo(["--api", api.url, "--home", dir, "login", "--email", "ada@e.test", "--password-stdin"], {
      stdin: "correct horse\n",
      now: () => NOW,
    });
    expect(result.code).toBe(0);
    expect(api.requests[0]!.body).toEqual({ email: "ada@e.test", password: "correct horse" }); // newline stripped
    expect(session(dir)).toEqual({
      api: api.url,
      accessToken: "access-1",
      refreshToken: "refresh-1",
      expiresAt: "2026-11-21T10:15:00.000Z",
      email: "ada@e.test",
    });
    expect(mode(join(dir, "session.json"))).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    expect(result.stdout).toContain(`logged in to ${api.url} as ada@e.test`);
  });

  it("says MFA is needed without --totp, and finishes with POST /auth/mfa/verify with it", async () => {
    api = await startFakeApi({
      "POST /auth/login": () => ({ status: 200, body: { mfaRequired: true, mfaToken: "mfa-1", expiresIn: 300 } }),
      "POST /auth/mfa/verify": (request) =>
        request.body.code === "123456"
          ? { status: 200, body: pair(2) }
          : { status: 401, body: envelope("unauthorized", "The code is not valid") },
    });
    const dir = home();
    const args = ["--api", api.url, "--home", dir, "login", "--email", "ada@e.test", "--password", "pw"];
    const without = await runWgo(args);
    expect(without.code).toBe(1);
    expect(without.stderr).toBe(
      "error: MFA is required for this account: run `wgo login` again with --totp CODE (authenticator or recovery code)\n",
    );

    const wrong = await runWgo([...args, "--totp", "000000"]);
    expect(wrong.stderr).toBe("error: 401 unauthorized: The code is not valid\n");

    const right = await runWgo([...args, "--totp", "123456"]);
    expect(right.code).toBe(0);
    expect(api.requests.filter((r) => r.path === "/auth/mfa/verify").map((r) => r.body)).toEqual([
      { mfaToken: "mfa-1", code: "000000" },
      { mfaToken: "mfa-1", code: "123456" },
    ]);
    expect(session(dir).accessToken).toBe("access-2");
  });
});

describe("user token handling", () => {
  const refused = envelope("unauthorized", "The access token is not valid");
  /** Logs in (access-1 with `expiresIn` s left at NOW); the enrol route refuses the tokens listed. */
  async function loggedIn(options: { expiresIn: number; refuse?: string[]; refresh?: FakeRoute }) {
    const state = newNetworkState();
    api = await startDeviceApi(
      {
        "POST /auth/login": () => ({ status: 200, body: pair(1, options.expiresIn) }),
        "POST /auth/refresh": options.refresh ?? (() => ({ status: 200, body: pair(2) })),
        "POST /auth/logout": () => ({ status: 204 }),
        "POST /client/devices": (request) =>
          options.refuse?.includes(request.token ?? "") ? { status: 401, body: refused } : enrolled(state, request.body.name),
      },
      state,
    );
    const dir = home();
    await runWgo(["--api", api.url, "--home", dir, "login", "--email", "ada@e.test", "--password", "pw"], { now: () => NOW });
    const enrol = (args: string[] = []) =>
      runWgo([...args, "--home", dir, "enrol", "--network", "net_1", "--name", "laptop"], { now: () => NOW });
    return { dir, enrol };
  }
  const calls = () =>
    api!.requests
      .filter((r) => r.path !== "/auth/login")
      .map((r) => `${r.method} ${r.path} ${r.path === "/auth/refresh" ? r.body.refreshToken : r.token}`);

  it("refreshes first when the access token expires within 60 s, and saves the new pair 0600", async () => {
    const { dir, enrol } = await loggedIn({ expiresIn: 59 });
    expect((await enrol()).code).toBe(0);
    expect(calls()).toEqual(["POST /auth/refresh refresh-1", "POST /client/devices access-2"]);
    expect(session(dir)).toMatchObject({ accessToken: "access-2", refreshToken: "refresh-2", expiresAt: "2026-11-21T10:15:00.000Z" });
    expect(mode(join(dir, "session.json"))).toBe(0o600);
  });

  it("does not refresh a token with more than 60 s left", async () => {
    const { enrol } = await loggedIn({ expiresIn: 61 });
    expect((await enrol()).code).toBe(0);
    expect(calls()).toEqual(["POST /client/devices access-1"]);
  });

  it("on a 401 refreshes once and retries once", async () => {
    const { dir, enrol } = await loggedIn({ expiresIn: 900, refuse: ["access-1"] });
    expect((await enrol()).code).toBe(0);
    expect(calls()).toEqual(["POST /client/devices access-1", "POST /auth/refresh refresh-1", "POST /client/devices access-2"]);
    expect(session(dir).refreshToken).toBe("refresh-2");
  });

  it("gives up after that one retry: a second 401 is the error", async () => {
    const { enrol } = await loggedIn({ expiresIn: 900, refuse: ["access-1", "access-2"] });
    const result = await enrol();
    expect(result.stderr).toBe("error: 401 unauthorized: The access token is not valid\n");
    expect(result.code).toBe(1);
    expect(calls()).toEqual(["POST /client/devices access-1", "POST /auth/refresh refresh-1", "POST /client/devices access-2"]);
  });

  it("says to log in again when the refresh token is refused", async () => {
    const { enrol } = await loggedIn({
      expiresIn: 10,
      refresh: () => ({ status: 401, body: envelope("unauthorized", "The refresh token is not valid") }),
    });
    const result = await enrol();
    expect(result.stderr).toBe("error: 401 unauthorized: The refresh token is not valid; the session has ended: run `wgo login` again\n");
    expect(result.code).toBe(1);
  });

  it("never sends the session's tokens to another API", async () => {
    const { enrol } = await loggedIn({ expiresIn: 900 });
    const result = await enrol(["--api", "http://127.0.0.1:1"]);
    expect(result.stderr).toMatch(
      /^error: the session in .*session\.json is for http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:1: run `wgo login --api http:\/\/127\.0\.0\.1:1`\n$/,
    );
    expect(calls()).toEqual([]);
  });

  it("logout ends the session on the server and removes the file", async () => {
    const { dir } = await loggedIn({ expiresIn: 900 });
    const routes = api!.requests;
    const result = await runWgo(["--home", dir, "logout"], { now: () => NOW });
    expect(result.stdout).toBe(`logged out of ${api!.url}\n`);
    expect(routes.at(-1)).toMatchObject({ method: "POST", path: "/auth/logout", token: "access-1" });
    expect(() => statSync(join(dir, "session.json"))).toThrow();
  });
});
