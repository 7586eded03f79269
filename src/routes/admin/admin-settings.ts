import { createRoute, z } from "@hono/zod-openapi";
import { inArray, sql } from "drizzle-orm";
import { regions, routingPolicies } from "../../db/schema";
import { createRouter } from "../../lib/create-router";
import { domainError } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { signedIn } from "../../middleware/auth";
import type { AppRouteHandler } from "../../lib/types";
import { effectiveSettings, readSettings, SettingsSchema, writeSettings } from "../../services/settings/settings";
import { requirePlatformAdmin } from "../users/users.handlers";

const SettingsView = z.object({
  settings: SettingsSchema,
  effective: z.object({
    routingPolicyMaxHops: z.number().int(), accessTokenSeconds: z.number().int(), refreshTokenSeconds: z.number().int(),
    offlineAfterSeconds: z.number().int(), signUpMode: z.string(),
  }).passthrough().openapi({ description: "Values in force: the stored override, else the wrangler [vars] value" }),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  policiesOverLimit: z.array(z.object({ policyId: z.string(), networkId: z.string(), hops: z.number().int() }))
    .openapi({ description: "Existing policies longer than the hop limit: they keep working; changing one requires meeting the limit" }),
}).openapi("AdminSettingsView");

const get = createRoute({
  method: "get", path: "/admin/settings", tags: ["Admin"], ...signedIn, summary: "Platform settings (platform admins)",
  responses: { 200: jsonResponse(SettingsView, "Settings"), ...errorResponses(401, 403) },
});

const put = createRoute({
  method: "put", path: "/admin/settings", tags: ["Admin"], ...signedIn,
  summary: "Replace the platform settings (platform admins); omitted fields fall back to the environment",
  request: { body: jsonBody(SettingsSchema) },
  responses: { 200: jsonResponse(SettingsView, "Saved"), ...errorResponses(400, 401, 403, 413, 415, 422) },
});

/** Lowering the hop limit never rewrites or disables a policy: the ones now too long are listed instead. */
async function overLimit(db: Parameters<typeof readSettings>[0], maxHops: number) {
  return db.select({ policyId: routingPolicies.id, networkId: routingPolicies.networkId, hops: sql<number>`json_array_length(${routingPolicies.gatewayPath})` })
    .from(routingPolicies).where(sql`json_array_length(${routingPolicies.gatewayPath}) > ${maxHops}`).limit(200).all();
}

const view = async (c: Parameters<AppRouteHandler<typeof get>>[0]) => {
  const stored = await readSettings(c.var.db);
  const effective = effectiveSettings(c.env, stored.settings);
  return { ...stored, effective, policiesOverLimit: await overLimit(c.var.db, effective.routingPolicyMaxHops) };
};

const getHandler: AppRouteHandler<typeof get> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  return c.json(await view(c), 200);
};

const putHandler: AppRouteHandler<typeof put> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const settings = c.req.valid("json");
  const wanted = settings.gatewayEligibility.regionIds ?? [];
  if (wanted.length > 0) {
    const known = new Set((await c.var.db.select({ id: regions.id }).from(regions).where(inArray(regions.id, wanted)).all()).map((r) => r.id));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) throw domainError(`gatewayEligibility.regionIds: ${unknown.join(", ")} are not regions`);
  }
  await writeSettings(c.var.db, settings, c.var.auth.userId, nowIso());
  return c.json(await view(c), 200);
};

export const adminRouter = createRouter().openapi(get, getHandler).openapi(put, putHandler);
