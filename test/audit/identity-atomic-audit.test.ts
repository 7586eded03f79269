import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import type { UserPrincipal } from "../../src/lib/types";
import type { AuditContext } from "../../src/services/audit/audit-trail";
import { createGroup as createGroupInService } from "../../src/services/identity/groups";
import { removeMember } from "../../src/services/identity/members";
import { updateUser } from "../../src/services/identity/user-lifecycle";
import { visibleUser } from "../../src/services/identity/users";
import { del, get, post } from "../helpers/api";
import { addMember, createGroup, createUser, type Session, signInAdmin, unique } from "../helpers/factories";

const auditRows = (requestId: string) =>
  env.DB.prepare("SELECT actor_type, actor_id, route, resource_id, group_id, status FROM audit_events WHERE request_id = ?")
    .bind(requestId)
    .all<Record<string, unknown>>()
    .then((result) => result.results);

/** request_id is NOT NULL: with null the audit insert fails inside the batch that carries the change. */
const brokenAudit = (actorId: string, route: string): AuditContext => ({
  actor: { type: "user", id: actorId },
  requestId: null as unknown as string,
  method: "POST",
  route,
  params: {},
  status: 200,
});

const authOf = (session: Session, platformRole: "admin" | "user" = "user"): UserPrincipal => ({
  kind: "user",
  userId: session.userId,
  sessionId: "ses_test",
  platformRole,
});

describe("identity writes commit their audit row in the same batch as the change", () => {
  it("a group whose audit row cannot be written is not created (nor its owner's membership)", async () => {
    const owner = await createUser(await signInAdmin());
    const name = unique("doomed-group");
    await expect(createGroupInService(createDb(env.DB), authOf(owner), name, brokenAudit(owner.userId, "/groups"))).rejects.toThrow(
      /NOT NULL/,
    );
    const mine = await get("/groups?limit=200", owner.token);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((group: { name: string }) => group.name)).not.toContain(name);
    const stray = await env.DB.prepare("SELECT count(*) AS n FROM groups WHERE name = ?").bind(name).first<{ n: number }>();
    expect(stray!.n).toBe(0);
  });

  it("a member removal whose audit row cannot be written leaves the member in the group", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const member = await createUser(admin);
    const group = await createGroup(owner);
    await addMember(group.id, member, "member");
    const removal = removeMember(
      env,
      createDb(env.DB),
      authOf(owner),
      group.id,
      member.userId,
      brokenAudit(owner.userId, "/groups/:id/members/:userId"),
    );
    await expect(removal).rejects.toThrow(/NOT NULL/);
    const members = await get(`/groups/${group.id}/members`, owner.token);
    expect(members.body.items.map((row: { userId: string }) => row.userId)).toContain(member.userId);
    expect((await get(`/groups/${group.id}`, member.token)).status).toBe(200);
  });

  it("a user disabling whose audit row cannot be written leaves the user enabled and signed in", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const db = createDb(env.DB);
    const adminAuth = authOf(admin, "admin");
    const row = await visibleUser(db, adminAuth, user.userId);
    await expect(updateUser(env, db, adminAuth, row, { disabled: true }, brokenAudit(admin.userId, "/users/:id"))).rejects.toThrow(
      /NOT NULL/,
    );
    const after = await get(`/users/${user.userId}`, admin.token);
    expect(after.body.disabled).toBe(false);
    // The sessions were to end in the same batch: they did not.
    expect((await post("/auth/refresh", { refreshToken: user.refreshToken })).status).toBe(200);
  });

  it("the row is there when the answer is (no polling): group creation, member removal, and a sign-in with its account as actor", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const member = await createUser(admin);
    const created = await post("/groups", { name: unique("audited") }, owner.token);
    expect(created.status).toBe(201);
    expect(await auditRows(created.headers.get("x-request-id")!)).toEqual([
      {
        actor_type: "user",
        actor_id: owner.userId,
        route: "/groups",
        resource_id: created.body.id,
        group_id: created.body.id,
        status: 201,
      },
    ]);
    await addMember(created.body.id, member, "member");
    const removed = await del(`/groups/${created.body.id}/members/${member.userId}`, owner.token);
    expect(removed.status).toBe(204);
    expect(await auditRows(removed.headers.get("x-request-id")!)).toEqual([
      {
        actor_type: "user",
        actor_id: owner.userId,
        route: "/groups/:id/members/:userId",
        resource_id: member.userId,
        group_id: created.body.id,
        status: 204,
      },
    ]);
    const login = await post("/auth/login", { email: member.email, password: "a long enough password" });
    expect(login.status).toBe(200);
    expect(await auditRows(login.headers.get("x-request-id")!)).toEqual([
      {
        actor_type: "user",
        actor_id: member.userId,
        route: "/auth/login",
        resource_id: member.userId,
        group_id: null,
        status: 200,
      },
    ]);
  });

  it("a refused write leaves no row: removing the last owner (409)", async () => {
    const owner = await createUser(await signInAdmin());
    const group = await createGroup(owner);
    const refused = await del(`/groups/${group.id}/members/${owner.userId}`, owner.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("conflict");
    expect(await auditRows(refused.headers.get("x-request-id")!)).toEqual([]);
    expect((await get(`/groups/${group.id}/members`, owner.token)).body.items.map((row: { userId: string }) => row.userId)).toEqual([
      owner.userId,
    ]);
  });
});
