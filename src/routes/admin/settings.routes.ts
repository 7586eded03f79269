import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { SettingsSchema, SettingsView } from "./settings.schemas";

export const get = createRoute({
  method: "get",
  path: "/admin/settings",
  tags: ["Admin"],
  summary: "Platform settings (platform admins)",
  responses: { 200: jsonResponse(SettingsView, "Settings"), ...errorResponses(401, 403) },
});

export const put = createRoute({
  method: "put",
  path: "/admin/settings",
  tags: ["Admin"],
  summary: "Replace the platform settings (platform admins); omitted fields fall back to the environment",
  request: { body: jsonBody(SettingsSchema) },
  responses: { 200: jsonResponse(SettingsView, "Saved"), ...errorResponses(400, 401, 403, 413, 415, 422) },
});
