import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { createGroup, createNetwork, createUser, fakePublicKey, signIn, signInAdmin, unique, type Session } from "../helpers/factories";
import { currentStep, freshAddress, from, mailedToken, totp } from "../identity/identity-helpers";
import { expectError } from "../helpers/expect-error";

/**
 * OWASP API6:2023 Unrestricted Access to Sensitive Business Flows: every single-use or limited grant
 * is taken with one conditional write, so a burst of parallel requests gets exactly its allowance.
 * The plain enrolment-key burst is in test/devices/enrol.test.ts; here the other grants and enrolment
 * keys whose enrolments fail (the use is counted by the enrolment's own batch, so only successes count).
 */
const PASSWORD = "a long enough password";
const burst = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));
const statuses = (responses: { status: number }[]) => responses.map((r) => r.status).sort();

let admin: Session;
beforeAll(async () => {
  admin = await signInAdmin();
});

describe("API6 single-use grants under a burst of parallel requests", () => {
  it("refresh: 8 parallel rotations of one token all get the same successor; the session survives", async () => {
    const user = await createUser(admin);
    const results = await burst(8, () => post("/auth/refresh", { refreshToken: user.refreshToken }));
    expect(statuses(results)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.body.refreshToken)).size).toBe(1);
    const successor = results[0]!.body.refreshToken as string;
    const rows = await env.DB.prepare(
      "select count(*) as n from refresh_tokens where session_id = (select session_id from refresh_tokens where parent_id is not null order by created_at desc limit 1)",
    ).first<{ n: number }>();
    expect(rows!.n).toBe(2);
    const next = await post("/auth/refresh", { refreshToken: successor });
    expect(next.status).toBe(200);
    expect((await get("/users/me", next.body.accessToken)).status).toBe(200);
  });

  it("invite acceptance: of 6 parallel accepts exactly one creates the account and the membership", async () => {
    const group = await createGroup(admin);
    const email = `${unique("race")}@example.com`;
    expect((await post(`/groups/${group.id}/invites`, { email, role: "member" }, admin.token)).status).toBe(201);
    const token = await mailedToken(email, "inv");
    const results = await burst(6, () => from(freshAddress()).post("/auth/invites/accept", { token, password: PASSWORD }));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    // Losers: already used (400/409), or over the invited account's attempt budget (429, 5 per 15 min).
    for (const loser of results.filter((r) => r.status !== 200)) expect([400, 409, 429]).toContain(loser.status);
    const users = await env.DB.prepare("select count(*) as n from users where email = ?").bind(email).first<{ n: number }>();
    expect(users!.n).toBe(1);
    const members = await get(`/groups/${group.id}/members`, admin.token);
    expect(members.body.items.filter((m: { email: string }) => m.email === email)).toHaveLength(1);
  });

  it("password reset: of 5 parallel confirms with different passwords exactly one wins, and only its password works", async () => {
    const user = await createUser(admin);
    expect((await from(freshAddress()).post("/auth/password-reset/request", { email: user.email })).status).toBe(202);
    const token = await mailedToken(user.email, "prt");
    const passwords = Array.from({ length: 5 }, (_, i) => `new password number ${i}`);
    const results = await burst(5, (i) => from(freshAddress()).post("/auth/password-reset/confirm", { token, newPassword: passwords[i] }));
    const winners = results.map((r, i) => [r.status, passwords[i]!] as const).filter(([status]) => status === 204);
    expect(winners).toHaveLength(1);
    await signIn(user.email, winners[0]![1]);
    const loser = passwords.find((p) => p !== winners[0]![1])!;
    expectError(await from(freshAddress()).post("/auth/login", { email: user.email, password: loser }), 401, "unauthorized");
  });

  it("agent enrolment: of 6 parallel enrolments with one token exactly one gets a credential", async () => {
    const region = await post("/regions", { name: unique("race-region") }, admin.token);
    const issued = await post("/agents/enrolment-tokens", { kind: "gateway-manager", regionId: region.body.id }, admin.token);
    const results = await burst(6, (i) => post("/agents/enrol", { token: issued.body.token, name: `racer-${i}` }));
    expect(statuses(results)).toEqual([201, 401, 401, 401, 401, 401]);
    const agents = await get(`/agents?limit=200`, admin.token);
    expect(agents.body.items.filter((a: { name: string }) => a.name.startsWith("racer-"))).toHaveLength(1);
  });

  it("MFA: one code sent 5 times in parallel signs in once", async () => {
    const user = await createUser(admin);
    const { secret } = (await post("/auth/mfa/enroll", undefined, user.token)).body;
    const step = currentStep();
    expect((await post("/auth/mfa/activate", { code: totp(secret, 0, step), password: "a long enough password" }, user.token)).status).toBe(
      200,
    );
    const address = freshAddress();
    const challenges = await burst(5, () => from(address).post("/auth/login", { email: user.email, password: PASSWORD }));
    const code = totp(secret, 1, step);
    const results = await Promise.all(
      challenges.map((c) => from(freshAddress()).post("/auth/mfa/verify", { mfaToken: c.body.mfaToken, code })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });
});

describe("API6 enrolment keys: failed enrolments give their use back without ever exceeding the limit", () => {
  it("a burst mixing duplicate public keys and fresh ones: successes never exceed the limit; usedCount equals the successes", async () => {
    const network = await createNetwork(admin, (await createGroup(admin)).id);
    const created = await post(`/networks/${network.id}/enrolment-keys`, { name: "mixed", usageLimit: 3 }, admin.token);
    const shared = fakePublicKey();
    const results = await burst(12, (i) =>
      call("POST", "/client/devices", {
        body: { name: `mixed-${i}`, publicKey: i % 2 === 0 ? shared : fakePublicKey(), enrolmentKey: created.body.key },
      }),
    );
    const created201 = results.filter((r) => r.status === 201).length;
    expect(created201).toBeLessThanOrEqual(3);
    expect(created201).toBeGreaterThanOrEqual(1);
    for (const r of results) expect([201, 401, 409]).toContain(r.status);
    const key = (await get(`/networks/${network.id}/enrolment-keys`, admin.token)).body.items[0];
    expect(key.usedCount).toBe(created201);
    const devices = await get(`/devices?networkId=${network.id}`, admin.token);
    expect(devices.body.items).toHaveLength(created201);
  });
});
