import { type Context, Hono } from "hono";
import { byId, type Schema } from "../../../client/index.ts";
import { ApiFailure, need, onFailure } from "../failure";
import { formFields, refusal, worded } from "../form";
import { searchList, searchWords } from "../list-search";
import { AdminAgentsPage } from "../pages/admin-agents";
import { AdminSettingsPage, SETTINGS_FIELDS } from "../pages/admin-settings";
import type { SignedInEnv } from "../types";

/**
 * Platform-admin pages. Nothing here checks the role itself: each page loads through an admin-only API
 * route, so anyone else gets the API's 403 as a page, and every POST is the API's to refuse.
 */
export const adminRoutes = new Hono<SignedInEnv>();
adminRoutes.onError(onFailure);

const numberOrNull = (value: string | undefined) => (value?.trim() ? Number(value) : null);

/** The form as the API's settings document (PUT replaces it whole; empty fields fall back to the environment). */
async function submittedSettings(c: Context<SignedInEnv>): Promise<Schema<"AdminSettings">> {
  const form = await c.req.formData();
  const field = (name: string) => String(form.get(name) ?? "");
  const regionIds = field("eligibleRegions")
    .split(/[\s,]+/)
    .filter(Boolean);
  return {
    routingPolicyMaxHops: numberOrNull(field("routingPolicyMaxHops")),
    gatewayEligibility: {
      statuses: form.getAll("eligibleStatuses").map(String) as ("active" | "draining" | "disabled")[],
      regionIds: regionIds.length > 0 ? regionIds : null,
    },
    tokenLifetimes: {
      accessTokenSeconds: numberOrNull(field("accessTokenSeconds")),
      refreshTokenSeconds: numberOrNull(field("refreshTokenSeconds")),
    },
    heartbeat: { offlineAfterSeconds: numberOrNull(field("offlineAfterSeconds")) },
    signUp: { mode: field("signUpMode") === "admins_only" ? "admins_only" : "invites" },
  };
}

adminRoutes.get("/admin", async (c) => {
  const view = need(await c.var.api.GET("/api/v1/admin/settings"));
  return c.html(<AdminSettingsPage user={c.var.user} csrfToken={c.var.csrfToken} view={view} settings={view.settings} />);
});

adminRoutes.post("/admin/settings", async (c) => {
  const settings = await submittedSettings(c);
  const saved = await c.var.api.PUT("/api/v1/admin/settings", { body: settings });
  if (saved.response.ok) return c.redirect("/admin", 303);
  const { message, fields, status } = refusal(saved);
  const view = await c.var.api.GET("/api/v1/admin/settings");
  if (!view.data) throw new ApiFailure(message, status);
  return c.html(
    <AdminSettingsPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      view={view.data}
      settings={settings}
      error={worded({ message, fields }, { fields: SETTINGS_FIELDS })}
    />,
    status,
  );
});

/** A page of agents, or of those whose name, or gateway's or region's name, contains `?q=` (list-search.ts). */
async function agentsView(c: Context<SignedInEnv>) {
  const [regions, gateways] = await Promise.all([
    c.var.api.GET("/api/v1/regions", { params: { query: { limit: 200 } } }),
    c.var.api.GET("/api/v1/gateways", { params: { query: { limit: 200 } } }),
  ]);
  const names = new Map([...need(regions).items, ...need(gateways).items].map((item) => [item.id, item.name] as const));
  const q = searchWords(c.req.query("q"));
  const read = async (at: string | undefined, limit: number) =>
    need(await c.var.api.GET("/api/v1/agents", { params: { query: { limit, ...(at ? { cursor: at } : {}) } } }));
  const texts = (agent: Schema<"Agent">) => [agent.name, names.get(agent.gatewayId ?? ""), names.get(agent.regionId ?? "")];
  const page = await searchList(read, texts, q, c.req.query("cursor"));
  return {
    user: c.var.user,
    csrfToken: c.var.csrfToken,
    agents: page.items,
    regions: need(regions).items,
    gateways: need(gateways).items,
    nextCursor: page.nextCursor,
    search: { q, searched: page.searched },
  };
}

// The agent list is readable by every user (a read-only inventory); the page is for platform admins.
adminRoutes.get("/admin/agents", async (c) => {
  if (c.var.user.platformRole !== "admin") return c.redirect("/admin", 303);
  return c.html(<AdminAgentsPage {...(await agentsView(c))} />);
});

/** The token is in this answer only (the API never shows it again): rendered here, not redirected. */
adminRoutes.post("/admin/agents/tokens", async (c) => {
  const { kind, gatewayId, regionId } = await formFields(c);
  const body = {
    kind: kind === "gateway-manager" ? ("gateway-manager" as const) : ("gateway-daemon" as const),
    ...(gatewayId ? { gatewayId } : {}),
    ...(regionId ? { regionId } : {}),
  };
  const issued = await c.var.api.POST("/api/v1/agents/enrolment-tokens", { body });
  if (!issued.data) {
    const { message, fields, status } = refusal(issued);
    const view = await agentsView(c).catch(() => Promise.reject(new ApiFailure(message, status)));
    return c.html(<AdminAgentsPage {...view} error={{ message, fields }} />, status);
  }
  return c.html(<AdminAgentsPage {...(await agentsView(c))} token={issued.data} origin={new URL(c.req.url).origin} />, 201);
});

adminRoutes.post("/admin/agents/:id/revoke", async (c) => {
  const revoked = await c.var.api.POST("/api/v1/agents/{id}/revoke", byId(c.req.param("id")));
  if (revoked.response.ok) return c.redirect("/admin/agents", 303);
  const { message, status } = refusal(revoked);
  const view = await agentsView(c).catch(() => Promise.reject(new ApiFailure(message, status)));
  return c.html(<AdminAgentsPage {...view} error={{ message }} />, status);
});
