import { type Context, Hono } from "hono";
import { byId, type Schema } from "../../../client/index.ts";
import { ApiFailure, need, onFailure } from "../failure";
import { formFields, refusal } from "../form";
import { AdminDirectoryPage } from "../pages/admin-directory";
import type { SignedInEnv } from "../types";

/** SCIM tokens and IdP group mappings (platform admins: the API refuses everyone else, and its 403 is the page). */
export const adminDirectoryRoutes = new Hono<SignedInEnv>();
adminDirectoryRoutes.onError(onFailure);

async function directoryView(c: Context<SignedInEnv>) {
  const [tokens, mappings, groups] = await Promise.all([
    c.var.api.GET("/api/v1/admin/scim-tokens", { params: { query: { limit: 200 } } }),
    c.var.api.GET("/api/v1/admin/idp-group-mappings", { params: { query: { limit: 200 } } }),
    c.var.api.GET("/api/v1/groups", { params: { query: { limit: 200 } } }),
  ]);
  // The form offers the first 200 groups; a mapping's group beyond them is read by id, so every row names its group.
  const listed = need(groups).items;
  const missing = [...new Set(need(mappings).items.map((mapping) => mapping.groupId))].filter(
    (id) => !listed.some((group) => group.id === id),
  );
  const named = await Promise.all(missing.map(async (id) => (await c.var.api.GET("/api/v1/groups/{id}", byId(id))).data));
  return {
    user: c.var.user,
    csrfToken: c.var.csrfToken,
    scimBase: `${new URL(c.req.url).origin}/api/v1/scim/v2`,
    tokens: need(tokens).items,
    mappings: need(mappings).items,
    groups: listed,
    otherGroups: named.filter((group) => group !== undefined),
  };
}

/** Back to the page on success; the page again with the API's refusal otherwise. */
async function answer(c: Context<SignedInEnv>, result: { error?: unknown; response: Response }) {
  if (result.response.ok) return c.redirect("/admin/directory", 303);
  const { message, fields, status } = refusal(result);
  const view = await directoryView(c).catch(() => Promise.reject(new ApiFailure(message, status)));
  return c.html(<AdminDirectoryPage {...view} error={{ message, fields }} />, status);
}

adminDirectoryRoutes.get("/admin/directory", async (c) => c.html(<AdminDirectoryPage {...(await directoryView(c))} />));

/** The token is in this answer only (the API never shows it again): rendered here, not redirected. */
adminDirectoryRoutes.post("/admin/directory/tokens", async (c) => {
  const { name } = await formFields(c);
  const issued = await c.var.api.POST("/api/v1/admin/scim-tokens", { body: { name: name ?? "" } });
  if (!issued.data) return answer(c, issued);
  return c.html(<AdminDirectoryPage {...(await directoryView(c))} issued={issued.data} />, 201);
});

adminDirectoryRoutes.post("/admin/directory/tokens/:id/revoke", async (c) =>
  answer(c, await c.var.api.POST("/api/v1/admin/scim-tokens/{id}/revoke", byId(c.req.param("id")))),
);

adminDirectoryRoutes.post("/admin/directory/mappings", async (c) => {
  const { idpGroup, groupId, role } = await formFields(c);
  const body = { idpGroup: idpGroup ?? "", groupId: groupId ?? "", role: (role ?? "member") as Schema<"CreateIdpGroupMapping">["role"] };
  return answer(c, await c.var.api.POST("/api/v1/admin/idp-group-mappings", { body }));
});

adminDirectoryRoutes.post("/admin/directory/mappings/:id/remove", async (c) =>
  answer(c, await c.var.api.DELETE("/api/v1/admin/idp-group-mappings/{id}", byId(c.req.param("id")))),
);
