import type { AppRouteHandler } from "../../lib/types";
import { userOf } from "../../lib/principal";
import { auditOf } from "../../middleware/audit";
import { requirePlatformAdmin } from "../../middleware/auth";
import { saveSettings, settingsView } from "../../services/settings/admin-settings";
import type * as routes from "./settings.routes";

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  requirePlatformAdmin(userOf(c));
  return c.json(await settingsView(c.env, c.var.db), 200);
};

export const put: AppRouteHandler<typeof routes.put> = async (c) => {
  requirePlatformAdmin(userOf(c));
  await saveSettings(c.var.db, c.req.valid("json"), userOf(c).userId, auditOf(c, 200));
  return c.json(await settingsView(c.env, c.var.db), 200);
};
