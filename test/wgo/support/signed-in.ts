// A fake API with a working sign-in beside the routes a test serves, and a wgo home signed in to it as
// ada@e.test (access token "access-1"): the start of every test of a command that uses the user session.
import { expect } from "vitest";
import { runWgo, tempHome } from "./cli.ts";
import { type FakeApi, type FakeRoute, startFakeApi } from "./fake-api.ts";

export interface SignedIn {
  api: FakeApi;
  home: string;
  /** Stops the fake API and removes the home. */
  close: () => Promise<void>;
}

export async function signedInHome(routes: Record<string, FakeRoute>, now: () => number): Promise<SignedIn> {
  const api = await startFakeApi({
    "POST /auth/login": () => ({
      status: 200,
      body: { accessToken: "access-1", refreshToken: "refresh-1", tokenType: "Bearer", expiresIn: 900, user: { email: "ada@e.test" } },
    }),
    ...routes,
  });
  const made = tempHome();
  const login = await runWgo(["--api", api.url, "--home", made.home, "login", "--email", "ada@e.test", "--password-stdin"], {
    stdin: "pw\n",
    now,
  });
  expect(login.code, login.stderr).toBe(0);
  return {
    api,
    home: made.home,
    close: async () => {
      await api.close();
      made.remove();
    },
  };
}
