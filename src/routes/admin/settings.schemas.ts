import { z } from "@hono/zod-openapi";
import { GatewayStatus } from "../../schemas/inventory";
import { SettingsSchema } from "../../services/settings/settings";

export { SettingsSchema };

const nullableSeconds = z.number().int().nullable();

/**
 * The stored settings as answered: SettingsSchema's output, every field present (defaults applied).
 * SettingsSchema itself documents the input, where every field may be left out.
 */
const StoredSettingsSchema = z
  .object({
    routingPolicyMaxHops: z.number().int().nullable().openapi({ description: "null: ROUTING_POLICY_MAX_HOPS applies" }),
    gatewayEligibility: z.object({
      statuses: z.array(GatewayStatus),
      regionIds: z.array(z.string()).nullable().openapi({ description: "null: gateways of any region" }),
    }),
    tokenLifetimes: z.object({ accessTokenSeconds: nullableSeconds, refreshTokenSeconds: nullableSeconds }),
    heartbeat: z.object({ offlineAfterSeconds: nullableSeconds }),
    signUp: z.object({ mode: z.enum(["admins_only", "invites"]) }),
  })
  .openapi("AdminSettingsStored");

export const SettingsView = z
  .object({
    settings: StoredSettingsSchema,
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
