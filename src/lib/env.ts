import { z } from "zod";
import type { NetworkWriter } from "../durable-objects/network-writer";

/** Bindings and variables as wrangler.toml and `wrangler secret` provide them. */
export interface Env {
  DB: D1Database;
  NETWORK_WRITER: DurableObjectNamespace<NetworkWriter>;
  ROUTING_POLICY_MAX_HOPS?: string;
  JWT_ISSUER?: string;
  ACCESS_TOKEN_TTL_SECONDS?: string;
  REFRESH_TOKEN_TTL_SECONDS?: string;
  SESSION_MAX_AGE_SECONDS?: string;
  OFFLINE_AFTER_SECONDS?: string;
  /** JSON array of Ed25519 private JWKs, each with a `kid`; the first one signs. */
  JWT_SIGNING_KEYS?: string;
  /** At least 32 bytes (base64 or plain text); keys the refresh-token HMAC. */
  TOKEN_SECRET?: string;
  BOOTSTRAP_ADMIN_EMAIL?: string;
  BOOTSTRAP_ADMIN_PASSWORD?: string;
}

const intVar = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const ConfigSchema = z.object({
  ROUTING_POLICY_MAX_HOPS: intVar(3, 1, 16),
  JWT_ISSUER: z.string().min(1).default("https://wg-overlay.local"),
  ACCESS_TOKEN_TTL_SECONDS: intVar(900, 60, 3600),
  /** Idle lifetime: a refresh token unused this long is dead. */
  REFRESH_TOKEN_TTL_SECONDS: intVar(1_209_600, 3600, 31_536_000),
  /** Absolute lifetime of a sign-in, however often it is refreshed. */
  SESSION_MAX_AGE_SECONDS: intVar(7_776_000, 3600, 31_536_000),
  /** A node or device without a heartbeat for this long shows as offline. */
  OFFLINE_AFTER_SECONDS: intVar(300, 30, 86_400),
  JWT_SIGNING_KEYS: z.string().min(1, "JWT_SIGNING_KEYS secret is not set"),
  TOKEN_SECRET: z.string().min(32, "TOKEN_SECRET must hold at least 32 characters"),
  BOOTSTRAP_ADMIN_EMAIL: z.string().optional(),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().optional(),
});

export type Config = z.infer<typeof ConfigSchema>;

const parsed = new WeakMap<object, Config>();

/** Checks the environment once per isolate; a misconfigured deploy fails loudly, not per route. */
export function getConfig(env: Env): Config {
  let config = parsed.get(env);
  if (!config) {
    const result = ConfigSchema.safeParse(env);
    if (!result.success) {
      const names = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
      throw new Error(`Invalid worker configuration: ${names.join("; ")}`);
    }
    config = result.data;
    parsed.set(env, config);
  }
  return config;
}

type WorkerEnv = Env;
declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {}
  }
}
