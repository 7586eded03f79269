import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { SettingsSchema, SettingsView } from "./settings.schemas";

export const get = createRoute({
  method: "get",
  path: "/admin/settings",
  operationId: "getAdminSettings",
  tags: ["Admin"],
  summary: "Platform settings (platform admins)",
  description:
    "Platform admins only (403 otherwise). Answers the stored overrides (null: the environment's value applies), the values in force, and the existing policies longer than the hop limit.",
  responses: { 200: jsonResponse(SettingsView, "Settings"), ...errorResponses(401, 403) },
});

export const put = createRoute({
  method: "put",
  path: "/admin/settings",
  operationId: "putAdminSettings",
  tags: ["Admin"],
  summary: "Replace the platform settings (platform admins); omitted fields fall back to the environment",
  description:
    "Platform admins only (403 otherwise). Replaces every override at once; an omitted field is stored as its default (null: the wrangler [vars] value applies). Lowering routingPolicyMaxHops leaves longer existing policies working; they are reported in policiesOverLimit.",
  request: { body: jsonBody(SettingsSchema) },
  responses: { 200: jsonResponse(SettingsView, "Saved"), ...errorResponses(400, 401, 403, 413, 415, 422) },
});
