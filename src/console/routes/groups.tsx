import { type Context, Hono } from "hono";
import { byId } from "../../../client/index.ts";
import { need, onFailure } from "../failure";
import { formFields, refusal, worded } from "../form";
import { matches, searchList, searchWords } from "../list-search";
import { GroupPage } from "../pages/group";
import { type GroupProps, INVITE_FIELDS, MEMBER_FIELDS, type Role } from "../pages/group-shared";
import { GROUP_FIELDS, GroupsPage } from "../pages/groups";
import { canChangeGroup, isPlatformAdmin } from "../roles";
import type { SignedInEnv } from "../types";

export const groupRoutes = new Hono<SignedInEnv>();
groupRoutes.onError(onFailure);

const ROLES: Role[] = ["owner", "admin", "member", "viewer"];

/** A page of the user's groups, or of those whose name contains `q` (list-search.ts). */
async function groupsPage(c: Context<SignedInEnv>, cursor?: string, q?: string) {
  const read = async (at: string | undefined, limit: number) =>
    need(await c.var.api.GET("/api/v1/groups", { params: { query: { limit, ...(at ? { cursor: at } : {}) } } }));
  return searchList(read, (group) => [group.name], q, cursor, 50);
}

groupRoutes.get("/groups", async (c) => {
  const q = searchWords(c.req.query("q"));
  const page = await groupsPage(c, c.req.query("cursor"), q);
  return c.html(
    <GroupsPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      groups={page.items}
      nextCursor={page.nextCursor}
      search={{ q, searched: page.searched }}
    />,
  );
});

groupRoutes.post("/groups", async (c) => {
  const values = await formFields(c);
  const created = await c.var.api.POST("/api/v1/groups", { body: { name: values.name ?? "" } });
  if (created.data) return c.redirect(`/groups/${created.data.id}`, 303);
  const { message, fields, status } = refusal(created);
  const page = await groupsPage(c);
  return c.html(
    <GroupsPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      groups={page.items}
      nextCursor={page.nextCursor}
      values={values}
      error={worded({ message, fields }, { fields: GROUP_FIELDS })}
    />,
    status,
  );
});

/** Everything the group page shows; invites only for those who may manage them (the API lists them to no one else). */
async function groupView(c: Context<SignedInEnv>, id: string): Promise<GroupProps> {
  const [group, members] = await Promise.all([
    c.var.api.GET("/api/v1/groups/{id}", byId(id)),
    c.var.api.GET("/api/v1/groups/{id}/members", { params: { path: { id }, query: { limit: 200 } } }),
  ]);
  const groupData = need(group);
  const canManage = canChangeGroup(c.var.user, groupData);
  const invites = canManage
    ? need(await c.var.api.GET("/api/v1/groups/{id}/invites", { params: { path: { id }, query: { limit: 200 } } })).items
    : undefined;
  const grantsOwner = groupData.role === "owner" || isPlatformAdmin(c.var.user);
  // Read whole (up to 200 each), so a search (`?q=`) filters what was read: people by email, name or role.
  const words = searchWords(c.req.query("q"));
  const allMembers = need(members).items;
  const shownMembers = words ? allMembers.filter((member) => matches(words, member.email, member.name, member.role)) : allMembers;
  const shownInvites = words && invites ? invites.filter((invite) => matches(words, invite.email, invite.role, invite.status)) : invites;
  return {
    user: c.var.user,
    csrfToken: c.var.csrfToken,
    group: groupData,
    members: shownMembers,
    invites: shownInvites,
    search: words ? { q: c.req.query("q")!.trim(), searched: allMembers.length + (invites?.length ?? 0) } : undefined,
    canManage,
    grantable: grantsOwner ? ROLES : ROLES.filter((role) => role !== "owner"),
  };
}

groupRoutes.get("/groups/:id", async (c) => c.html(<GroupPage {...(await groupView(c, c.req.param("id")))} />));

/** After a change: back to the group (303), or the page again with the API's refusal where the form is. */
async function answer(
  c: Context<SignedInEnv>,
  result: { data?: unknown; error?: unknown; response: Response },
  form: "member" | "invite" | "row",
  values: Record<string, string> = {},
) {
  const id = c.req.param("id") ?? "";
  if (result.response.ok) return c.redirect(`/groups/${id}`, 303);
  const { message, fields, status } = refusal(result);
  const view = await groupView(c, id);
  const map = form === "member" ? MEMBER_FIELDS : form === "invite" ? INVITE_FIELDS : {};
  // "already a member" / "already belongs to a member" are about the person typed in, not the whole form.
  const sentences = [[/already (?:a member|belongs to a member)/, "email"]] as const;
  const error = { ...worded({ message, fields }, { fields: map, sentences }), form };
  return c.html(<GroupPage {...view} error={error} values={values} />, status);
}

const asRole = (value: string | undefined) => (ROLES.includes(value as Role) ? (value as Role) : ("" as Role));

groupRoutes.post("/groups/:id/members", async (c) => {
  const values = await formFields(c);
  const who = (values.who ?? "").trim();
  // The API takes either: an address has an @, a user id never does.
  const body = who.includes("@") ? { email: who, role: asRole(values.role) } : { userId: who, role: asRole(values.role) };
  const added = await c.var.api.POST("/api/v1/groups/{id}/members", { params: { path: { id: c.req.param("id") } }, body });
  return answer(c, added, "member", values);
});

groupRoutes.post("/groups/:id/members/:userId/role", async (c) => {
  const { role } = await formFields(c);
  const path = { id: c.req.param("id"), userId: c.req.param("userId") };
  return answer(
    c,
    await c.var.api.PATCH("/api/v1/groups/{id}/members/{userId}", { params: { path }, body: { role: asRole(role) } }),
    "row",
  );
});

groupRoutes.post("/groups/:id/members/:userId/remove", async (c) => {
  const path = { id: c.req.param("id"), userId: c.req.param("userId") };
  const removed = await c.var.api.DELETE("/api/v1/groups/{id}/members/{userId}", { params: { path } });
  // Leaving a group ends access to it: there is no group page to go back to.
  if (removed.response.ok && path.userId === c.var.user.id) return c.redirect("/groups", 303);
  return answer(c, removed, "row");
});

groupRoutes.post("/groups/:id/invites", async (c) => {
  const values = await formFields(c);
  const body = { email: (values.email ?? "").trim(), role: asRole(values.role) };
  const invited = await c.var.api.POST("/api/v1/groups/{id}/invites", { params: { path: { id: c.req.param("id") } }, body });
  return answer(c, invited, "invite", values);
});

groupRoutes.post("/groups/:id/invites/:inviteId/revoke", async (c) => {
  const path = { id: c.req.param("id"), inviteId: c.req.param("inviteId") };
  return answer(c, await c.var.api.DELETE("/api/v1/groups/{id}/invites/{inviteId}", { params: { path } }), "row");
});
