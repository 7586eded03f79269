import { z } from "@hono/zod-openapi";
import { SettingsSchema } from "../../services/settings/settings";

export { SettingsSchema };

export const SettingsView = z
  .object({
    settings: SettingsSchema,
    effective: z
      .object({
        routingPolicyMaxHops: z.number().int(),
        accessTokenSeconds: z.number().int(),
        refreshTokenSeconds: z.number().int(),
        offlineAfterSeconds: z.number().int(),
        signUpMode: z.string(),
      })
      .passthrough()
      .openapi({ description: "Values in force: the stored override, else the wrangler [vars] value" }),
    updatedAt: z.string().nullable(),
    updatedBy: z.string().nullable(),
    policiesOverLimit: z
      .array(z.object({ policyId: z.string(), networkId: z.string(), hops: z.number().int() }))
      .openapi({ description: "Existing policies longer than the hop limit: they keep working; changing one requires meeting the limit" }),
  })
  .openapi("AdminSettingsView");
