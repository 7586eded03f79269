import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { addMember, createGroup, createUser, signInAdmin, type Session } from "../helpers/factories";
import { currentStep, expectError, expectRetryAfter, freshAddress, from, mailedToken, totp, uniqueEmail } from "./identity-helpers";

const PASSWORD = "a long enough password";

async function invite(owner: Session, groupId: string, email: string, role = "member") {
  const response = await post(`/groups/${groupId}/invites`, { email, role }, owner.token);
  expect(response.status, response.text).toBe(201);
  return { invite: response.body, token: await mailedToken(email, "inv") };
}

const accept = (body: Record<string, unknown>, bearer?: string) =>
  call("POST", "/auth/invites/accept", { body, token: bearer, headers: { "CF-Connecting-IP": freshAddress() } });

describe("invites", { timeout: 30_000 }, () => {
  it("a new address accepts with a password: the account is created, signed in and a member with the role", async () => {
    const owner = await createUser(await signInAdmin());
    const group = await createGroup(owner);
    const email = uniqueEmail("invitee");
    const { invite: created, token } = await invite(owner, group.id, email, "viewer");
    expect(created).toMatchObject({ email, role: "viewer", status: "pending", groupId: group.id });
    expect(JSON.stringify(created)).not.toContain(token);

    const accepted = await accept({ token, password: PASSWORD, name: "New Person" });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ groupId: group.id, role: "viewer", accountCreated: true, user: { email, name: "New Person" } });
    const me = await get(`/users/me/groups`, accepted.body.accessToken);
    expect(me.body.items).toEqual([expect.objectContaining({ groupId: group.id, role: "viewer" })]);
    expect((await get(`/groups/${group.id}/invites`, owner.token)).body.items[0]).toMatchObject({
      status: "accepted",
      acceptedBy: accepted.body.user.id,
    });
    // Single use.
    expectError(await accept({ token, password: PASSWORD }), 400, "validation_error");
  });

  it("an existing account joins with its bearer token or its password, not with nothing or another account", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const invitee = await createUser(admin);
    const stranger = await createUser(admin);
    const group = await createGroup(owner);
    const { token } = await invite(owner, group.id, invitee.email, "admin");

    expectError(await accept({ token }), 401, "unauthorized");
    expectError(await accept({ token, password: "not the password!" }), 401, "unauthorized");
    expectError(await accept({ token }, stranger.token), 403, "forbidden");
    const joined = await accept({ token }, invitee.token);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toMatchObject({ role: "admin", accountCreated: false, user: { id: invitee.userId } });
    expect(joined.body.accessToken).toBeUndefined();

    const second = await createGroup(owner);
    const { token: byPassword } = await invite(owner, second.id, invitee.email);
    expect((await accept({ token: byPassword, password: PASSWORD })).body).toMatchObject({ role: "member", accountCreated: false });
  });

  it("a password alone does not join an account that has MFA on", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const invitee = await createUser(admin);
    const { secret } = (await post("/auth/mfa/enroll", undefined, invitee.token)).body;
    expect((await post("/auth/mfa/activate", { code: totp(secret, 0, currentStep()), password: PASSWORD }, invitee.token)).status).toBe(
      200,
    );
    const group = await createGroup(owner);
    const { token } = await invite(owner, group.id, invitee.email);
    expectError(await accept({ token, password: PASSWORD }), 401, "unauthorized");
    expect((await accept({ token }, invitee.token)).status).toBe(200);
  });

  it("refuses forged, expired and revoked tokens; a revoked or accepted invite cannot be revoked again", async () => {
    const owner = await createUser(await signInAdmin());
    const group = await createGroup(owner);
    expectError(await accept({ token: "inv_forged", password: PASSWORD }), 400, "validation_error");

    const expiring = await invite(owner, group.id, uniqueEmail());
    await env.DB.prepare("update invites set expires_at = '2000-01-01T00:00:00.000Z' where id = ?").bind(expiring.invite.id).run();
    expectError(await accept({ token: expiring.token, password: PASSWORD }), 400, "validation_error");

    const revoked = await invite(owner, group.id, uniqueEmail());
    expect((await call("DELETE", `/groups/${group.id}/invites/${revoked.invite.id}`, { token: owner.token })).status).toBe(204);
    expectError(await accept({ token: revoked.token, password: PASSWORD }), 400, "validation_error");
    expectError(await call("DELETE", `/groups/${group.id}/invites/${revoked.invite.id}`, { token: owner.token }), 409, "conflict");
    const statuses = (await get(`/groups/${group.id}/invites`, owner.token)).body.items.map((item: { status: string }) => item.status);
    expect(statuses).toEqual(["expired", "revoked"]);
  });

  it("re-inviting an address revokes its earlier pending invite", async () => {
    const owner = await createUser(await signInAdmin());
    const group = await createGroup(owner);
    const email = uniqueEmail();
    const first = await invite(owner, group.id, email);
    await invite(owner, group.id, email, "admin");
    expectError(await accept({ token: first.token, password: PASSWORD }), 400, "validation_error");
  });

  it("only owners and admins invite; only owners invite owners; members cannot; strangers see nothing", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const groupAdmin = await createUser(admin);
    const member = await createUser(admin);
    const stranger = await createUser(admin);
    const group = await createGroup(owner);
    await addMember(group.id, groupAdmin, "admin");
    await addMember(group.id, member, "member");

    expectError(await post(`/groups/${group.id}/invites`, { email: uniqueEmail(), role: "owner" }, groupAdmin.token), 403, "forbidden");
    expect((await post(`/groups/${group.id}/invites`, { email: uniqueEmail(), role: "admin" }, groupAdmin.token)).status).toBe(201);
    expect((await post(`/groups/${group.id}/invites`, { email: uniqueEmail(), role: "owner" }, owner.token)).status).toBe(201);
    expectError(await post(`/groups/${group.id}/invites`, { email: uniqueEmail(), role: "member" }, member.token), 403, "forbidden");
    expectError(await get(`/groups/${group.id}/invites`, member.token), 403, "forbidden");
    expectError(await post(`/groups/${group.id}/invites`, { email: uniqueEmail(), role: "member" }, stranger.token), 404, "not_found");
    expectError(await post(`/groups/${group.id}/invites`, { email: member.email, role: "viewer" }, owner.token), 409, "conflict");
    expectError(await post(`/groups/${group.id}/invites`, { email: uniqueEmail(), role: "king" }, owner.token), 422, "VALIDATION_ERROR");
  });

  it("a new account needs a password that meets the rules", async () => {
    const owner = await createUser(await signInAdmin());
    const group = await createGroup(owner);
    const { token } = await invite(owner, group.id, uniqueEmail());
    expectError(await accept({ token }), 422, "VALIDATION_ERROR");
    expectError(await accept({ token, password: "short" }), 422, "VALIDATION_ERROR");
    expect((await accept({ token, password: PASSWORD })).status).toBe(200);
  });

  it("sending invites is throttled per inviting account: of 30 in a burst 20 are mailed, 10 are 429 and leave nothing", async () => {
    const owner = await createUser(await signInAdmin());
    const group = await createGroup(owner);
    const emails = Array.from({ length: 30 }, () => uniqueEmail("stranger"));
    // Each from its own client address: only the account's budget can bind.
    const answers = await Promise.all(
      emails.map((email) =>
        call("POST", `/groups/${group.id}/invites`, {
          body: { email, role: "member" },
          token: owner.token,
          headers: { "CF-Connecting-IP": freshAddress() },
        }),
      ),
    );
    const refused = answers.flatMap((answer, i) => (answer.status === 201 ? [] : [{ answer, email: emails[i]! }]));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(20);
    expect(refused).toHaveLength(10);
    for (const { answer } of refused) expectRetryAfter(answer, 3600);
    // A refused invite is neither stored nor mailed; a re-invite of a mailed address is counted the same.
    const stored = await env.DB.prepare("select count(*) as n from invites where group_id = ?").bind(group.id).first<{ n: number }>();
    expect(stored!.n).toBe(20);
    for (const { email } of refused) expect((await get(`/dev/mail?to=${encodeURIComponent(email)}`)).body.items).toEqual([]);
    const reinvite = await call("POST", `/groups/${group.id}/invites`, {
      body: { email: emails.find((_, i) => answers[i]!.status === 201), role: "member" },
      token: owner.token,
      headers: { "CF-Connecting-IP": freshAddress() },
    });
    expectRetryAfter(reinvite, 3600);
  });

  it("sending invites is throttled per client address across accounts (40 an hour)", async () => {
    const admin = await signInAdmin();
    const address = freshAddress();
    const send = (owner: Session, groupId: string) =>
      call("POST", `/groups/${groupId}/invites`, {
        body: { email: uniqueEmail("stranger"), role: "member" },
        token: owner.token,
        headers: { "CF-Connecting-IP": address },
      });
    for (let n = 0; n < 2; n++) {
      const owner = await createUser(admin);
      const group = await createGroup(owner);
      for (let i = 0; i < 20; i++) expect((await send(owner, group.id)).status).toBe(201);
    }
    const third = await createUser(admin);
    const group = await createGroup(third);
    expectRetryAfter(await send(third, group.id), 3600);
    expect(
      (
        await call("POST", `/groups/${group.id}/invites`, {
          body: { email: uniqueEmail("stranger"), role: "member" },
          token: third.token,
          headers: { "CF-Connecting-IP": freshAddress() },
        })
      ).status,
    ).toBe(201);
  });

  it("throttles acceptance per invited account and per client address", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const invitee = await createUser(admin);
    const group = await createGroup(owner);
    const { token } = await invite(owner, group.id, invitee.email);
    for (let i = 0; i < 5; i++) expectError(await accept({ token, password: "wrong password!" }), 401, "unauthorized");
    expectRetryAfter(await accept({ token, password: PASSWORD }), 900);

    const address = from(freshAddress());
    for (let i = 0; i < 20; i++)
      expectError(await address.post("/auth/invites/accept", { token: `inv_guess${i}` }), 400, "validation_error");
    expectRetryAfter(await address.post("/auth/invites/accept", { token: "inv_guess" }), 900);
  });
});
