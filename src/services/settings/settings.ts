import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { adminSettings, GATEWAY_STATUSES } from "../../db/schema";
import { getConfig, type Config, type Env } from "../../lib/env";

/**
 * Platform settings stored in D1. Each field is optional: unset means "use the wrangler [vars] value"
 * (ROUTING_POLICY_MAX_HOPS, ACCESS_TOKEN_TTL_SECONDS, …), so a fresh deploy behaves as configured.
 */
export const SettingsSchema = z
  .strictObject({
    routingPolicyMaxHops: z
      .number()
      .int()
      .min(1)
      .max(16)
      .nullable()
      .default(null)
      .openapi({ description: "Overrides ROUTING_POLICY_MAX_HOPS; lowering it leaves longer existing policies working (reported)" }),
    gatewayEligibility: z
      .strictObject({
        statuses: z.array(z.enum(GATEWAY_STATUSES)).min(1).default(["active"]),
        regionIds: z
          .array(z.string().min(1).max(64))
          .max(100)
          .nullable()
          .default(null)
          .openapi({ description: "Only gateways of these regions may be policy hops; null: any region" }),
      })
      .default({ statuses: ["active"], regionIds: null }),
    tokenLifetimes: z
      .strictObject({
        accessTokenSeconds: z.number().int().min(60).max(3600).nullable().default(null),
        refreshTokenSeconds: z.number().int().min(3600).max(31_536_000).nullable().default(null),
      })
      .default({ accessTokenSeconds: null, refreshTokenSeconds: null }),
    heartbeat: z
      .strictObject({
        offlineAfterSeconds: z.number().int().min(30).max(86_400).nullable().default(null),
      })
      .default({ offlineAfterSeconds: null }),
    signUp: z
      .strictObject({
        mode: z
          .enum(["admins_only", "invites"])
          .default("invites")
          .openapi({ description: "admins_only: only platform admins create accounts; invites: accepted invites may create them too" }),
      })
      .default({ mode: "invites" }),
  })
  .openapi("AdminSettings");

export type Settings = z.infer<typeof SettingsSchema>;
const SETTINGS_ID = "platform";

export async function readSettings(db: Db): Promise<{ settings: Settings; updatedAt: string | null; updatedBy: string | null }> {
  return settingsFromRow((await settingsQuery(db))[0]);
}

/** The stored settings row's query (at most one row), for a caller that batches its reads. */
export const settingsQuery = (db: Db) => db.select().from(adminSettings).where(eq(adminSettings.id, SETTINGS_ID));

/** The settings a stored row holds (none: the defaults). */
export function settingsFromRow(row: typeof adminSettings.$inferSelect | undefined) {
  // Stored values were validated on write; parsing again fills defaults added since.
  const parsed = SettingsSchema.safeParse(row?.value ?? {});
  return {
    settings: parsed.success ? parsed.data : SettingsSchema.parse({}),
    updatedAt: row?.updatedAt ?? null,
    updatedBy: row?.updatedBy ?? null,
  };
}

/** The upsert that stores the settings, for the caller's batch (with its audit row). */
export const writeSettingsStatement = (db: Db, settings: Settings, userId: string, now: string) =>
  db
    .insert(adminSettings)
    .values({ id: SETTINGS_ID, value: settings, updatedBy: userId, updatedAt: now })
    .onConflictDoUpdate({ target: adminSettings.id, set: { value: settings, updatedBy: userId, updatedAt: now } });

/** What is in force: the stored override, else the environment's value. */
export function effectiveSettings(env: Env, settings: Settings) {
  return effectiveFromConfig(getConfig(env), settings);
}

function effectiveFromConfig(config: Config, settings: Settings) {
  return {
    routingPolicyMaxHops: settings.routingPolicyMaxHops ?? config.ROUTING_POLICY_MAX_HOPS,
    gatewayEligibility: settings.gatewayEligibility,
    accessTokenSeconds: settings.tokenLifetimes.accessTokenSeconds ?? config.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenSeconds: settings.tokenLifetimes.refreshTokenSeconds ?? config.REFRESH_TOKEN_TTL_SECONDS,
    offlineAfterSeconds: settings.heartbeat.offlineAfterSeconds ?? config.OFFLINE_AFTER_SECONDS,
    signUpMode: settings.signUp.mode,
  };
}

export type EffectiveSettings = ReturnType<typeof effectiveSettings>;

export async function loadEffectiveSettings(env: Env, db: Db): Promise<EffectiveSettings> {
  return effectiveSettings(env, (await readSettings(db)).settings);
}

/** The offline threshold in force: what every presence (device, node, agent status) is judged by. */
export const offlineAfterSeconds = async (env: Env, db: Db) => (await loadEffectiveSettings(env, db)).offlineAfterSeconds;

/**
 * The environment's config with the admin overrides applied, for code that takes a Config (token
 * lifetimes at sign-in and refresh, the offline threshold of the scheduled detection). One read.
 */
export async function configInForce(config: Config, db: Db): Promise<Config> {
  const effective = effectiveFromConfig(config, (await readSettings(db)).settings);
  return {
    ...config,
    ROUTING_POLICY_MAX_HOPS: effective.routingPolicyMaxHops,
    ACCESS_TOKEN_TTL_SECONDS: effective.accessTokenSeconds,
    REFRESH_TOKEN_TTL_SECONDS: effective.refreshTokenSeconds,
    OFFLINE_AFTER_SECONDS: effective.offlineAfterSeconds,
  };
}
