import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createUser, expectStatus, signInAdmin } from "../helpers/factories";
import { totp } from "../identity/identity-helpers";
import { ConsoleAgent, setCookiesOf } from "./support/console-agent";

const PASSWORD = "a long enough password";

async function userWithMfa() {
  const user = await createUser(await signInAdmin());
  const { secret } = expectStatus(await api(user.token).POST("/api/v1/auth/mfa/enroll"), 200);
  const { recoveryCodes } = expectStatus(
    await api(user.token).POST("/api/v1/auth/mfa/activate", { body: { code: totp(secret), password: PASSWORD } }),
    200,
  );
  return { email: user.email, recoveryCode: recoveryCodes[0] ?? "" };
}

/**
 * Every Set-Cookie the console sends, deletions included, carries the same flags: __Host- (this origin
 * only), Path=/, Secure, HttpOnly, and SameSite=Lax. Lax and not Strict on purpose (session.ts): Chromium
 * leaves Strict cookies off a same-site redirect that follows a cross-site navigation, so after an OAuth
 * provider's redirect the MFA step would not see its cookie and the CSRF token would be minted anew.
 */
describe("console cookies", { timeout: 30_000 }, () => {
  it("are all __Host-, Secure, HttpOnly, SameSite=Lax, Path=/ through sign-in with MFA, refresh, OAuth and sign-out", async () => {
    const { email, recoveryCode } = await userWithMfa();
    const agent = new ConsoleAgent();
    const seen: string[] = [];
    const step = async <T extends { headers: Headers }>(answer: Promise<T>) => {
      const done = await answer;
      seen.push(...setCookiesOf(done.headers));
      return done;
    };

    await step(agent.get("/sign-in"));
    const challenged = await step(agent.post("/sign-in", { email, password: PASSWORD }));
    expect(challenged.location).toBe("/sign-in/mfa");
    expect(agent.cookies.has("__Host-wgo_mfa")).toBe(true);
    const verified = await step(agent.post("/sign-in/mfa", { code: recoveryCode }));
    expect(verified.location).toBe("/networks");
    expect(agent.cookies.has("__Host-wgo_mfa")).toBe(false);

    agent.cookies.delete("__Host-wgo_at"); // expired in the browser: the next page refreshes
    expect((await step(agent.get("/networks"))).status).toBe(200);
    await step(agent.get("/sign-in/oauth/github/callback?code=x&state=y"));
    await step(agent.post("/sign-out", {}));
    expect(agent.cookies.has("__Host-wgo_rt")).toBe(false);

    const names = new Set(seen.map((line) => line.slice(0, line.indexOf("="))));
    for (const name of ["__Host-wgo_csrf", "__Host-wgo_mfa", "__Host-wgo_at", "__Host-wgo_rt", "__Host-wgo_oauth"]) {
      expect(names, name).toContain(name);
    }
    for (const line of seen) {
      expect(line).toMatch(/^__Host-/);
      expect(line).toMatch(/; Path=\/(;|$)/);
      expect(line).toMatch(/; Secure(;|$)/);
      expect(line).toMatch(/; HttpOnly(;|$)/);
      expect(line).toMatch(/; SameSite=Lax(;|$)/);
      expect(line).not.toMatch(/Domain=/i);
    }
  });
});
