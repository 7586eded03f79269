import { z } from "zod";

/** Bindings and variables as wrangler.toml and `wrangler secret` provide them. */
export interface Env {
  DB: D1Database;
  /** Each network's single writer; objects/network/network-writer.ts gives it its typed stub. */
  NETWORK_WRITER: DurableObjectNamespace;
  /** Each group's single writer of its networks as a set (names, CIDRs): objects/group/group-writer.ts. */
  GROUP_WRITER: DurableObjectNamespace;
  /** The files in dist/assets/ (wrangler.toml [assets]; scripts/build-assets.mjs): lib/static-assets.ts serves them. */
  ASSETS: Fetcher;
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
  /** Identity (docs/identity.md): throttle counters, mail, token lifetimes, OAuth providers. */
  THROTTLE: DurableObjectNamespace;
  MAIL_TRANSPORT?: string;
  /** "true" in development only: GET /__scheduled runs the cron once (src/dev-cron-trigger.ts). */
  DEV_CRON_TRIGGER?: string;
  /** "true" in development only: the Worker's requests meter their D1 rows, read at GET /__d1-meter (src/dev-d1-meter.ts). */
  DEV_D1_METER?: string;
  MAIL_FROM?: string;
  MAIL_HTTP_URL?: string;
  MAIL_HTTP_TOKEN?: string;
  PUBLIC_BASE_URL?: string;
  FRONTEND_URL?: string;
  PASSWORD_RESET_TTL_SECONDS?: string;
  INVITE_TTL_SECONDS?: string;
  MFA_CHALLENGE_TTL_SECONDS?: string;
  THROTTLE_LOGIN_PAIR?: string;
  THROTTLE_LOGIN_ACCOUNT?: string;
  THROTTLE_LOGIN_ADDRESS?: string;
  THROTTLE_MFA_ACCOUNT?: string;
  THROTTLE_MFA_ADDRESS?: string;
  THROTTLE_RESET_PAIR?: string;
  THROTTLE_RESET_ACCOUNT?: string;
  THROTTLE_RESET_ADDRESS?: string;
  THROTTLE_INVITE_ACCOUNT?: string;
  THROTTLE_INVITE_ADDRESS?: string;
  THROTTLE_INVITE_SEND_ACCOUNT?: string;
  THROTTLE_INVITE_SEND_ADDRESS?: string;
  THROTTLE_REFUSED_WRITES?: string;
  OAUTH_GITHUB_CLIENT_ID?: string;
  OAUTH_GITHUB_CLIENT_SECRET?: string;
  OAUTH_GOOGLE_CLIENT_ID?: string;
  OAUTH_GOOGLE_CLIENT_SECRET?: string;
  OIDC_ISSUER?: string;
  OIDC_CLIENT_ID?: string;
  OIDC_CLIENT_SECRET?: string;
  /** The ID token claim that lists the person's IdP groups (docs/identity.md); default `groups`. */
  OIDC_GROUPS_CLAIM?: string;
  /** Notifications and audit (docs/notifications.md, docs/audit.md). */
  DRIFT_AFTER_SECONDS?: string;
  WEBHOOK_ALLOW_HTTP_LOOPBACK?: string;
  WEBHOOK_TIMEOUT_MS?: string;
  AUDIT_RETENTION_DAYS?: string;
  /** Gateway pools (docs/routing.md): a member without a report this long is unhealthy; failed probes in a row that make it "not forwarding". */
  POOL_STALE_SECONDS?: string;
  POOL_PROBE_FAILURES?: string;
  /** Gateway pools' fast probes (issue 27): the agents' echo cadence, their hysteresis, and the hold-down after a failover. */
  POOL_PROBE_INTERVAL_MS?: string;
  POOL_PROBE_DOWN_AFTER?: string;
  POOL_PROBE_UP_AFTER?: string;
  POOL_HOLD_DOWN_SECONDS?: string;
  /** Paths across NAT (docs/nat.md): when a pair goes onto a relay, how long it stays, when a learned endpoint expires. */
  NAT_DIRECT_TIMEOUT_SECONDS?: string;
  NAT_RELAY_HOLD_SECONDS?: string;
  NAT_CANDIDATE_TTL_SECONDS?: string;
  /** log2 of scrypt's N for new password hashes (default 14; the workerd test suites use 10). */
  PASSWORD_SCRYPT_LOG_N?: string;
}

const intVar = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** "limit/seconds", e.g. "5/900": at most 5 counted attempts in any 900 s. */
const rateVar = (fallback: string) =>
  z
    .string()
    .regex(/^\d{1,6}\/\d{1,7}$/, "use limit/seconds, e.g. 5/900")
    .default(fallback)
    .transform((text) => {
      const [limit, windowSeconds] = text.split("/").map(Number) as [number, number];
      return { limit: Math.max(1, limit), windowSeconds: Math.max(1, windowSeconds) };
    });

const optionalText = z.string().trim().min(1).optional().catch(undefined);

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
  /** dev: D1 outbox + GET /dev/mail; http: POST to MAIL_HTTP_URL; none (default): mail is dropped. */
  MAIL_TRANSPORT: z.enum(["dev", "http", "none"]).default("none"),
  MAIL_FROM: z.string().min(3).default("WireGuard overlay <no-reply@wg-overlay.local>"),
  MAIL_HTTP_URL: z.url().default("https://api.resend.com/emails"),
  MAIL_HTTP_TOKEN: optionalText,
  PUBLIC_BASE_URL: z.url().optional(),
  FRONTEND_URL: z.url().optional(),
  PASSWORD_RESET_TTL_SECONDS: intVar(1800, 300, 86_400),
  INVITE_TTL_SECONDS: intVar(604_800, 3600, 2_592_000),
  MFA_CHALLENGE_TTL_SECONDS: intVar(300, 60, 900),
  /** One account from one client address; the account ceiling across addresses is far higher (docs/identity.md). */
  THROTTLE_LOGIN_PAIR: rateVar("5/900"),
  THROTTLE_LOGIN_ACCOUNT: rateVar("100/3600"),
  THROTTLE_LOGIN_ADDRESS: rateVar("20/900"),
  THROTTLE_MFA_ACCOUNT: rateVar("5/900"),
  THROTTLE_MFA_ADDRESS: rateVar("20/900"),
  THROTTLE_RESET_PAIR: rateVar("3/3600"),
  THROTTLE_RESET_ACCOUNT: rateVar("20/3600"),
  THROTTLE_RESET_ADDRESS: rateVar("10/3600"),
  THROTTLE_INVITE_ACCOUNT: rateVar("5/900"),
  THROTTLE_INVITE_ADDRESS: rateVar("20/900"),
  /** Invites mailed per inviting account and per client address (each one is a mail to a stranger). */
  THROTTLE_INVITE_SEND_ACCOUNT: rateVar("20/3600"),
  THROTTLE_INVITE_SEND_ADDRESS: rateVar("40/3600"),
  THROTTLE_REFUSED_WRITES: rateVar("60/60"),
  OAUTH_GITHUB_CLIENT_ID: optionalText,
  OAUTH_GITHUB_CLIENT_SECRET: optionalText,
  OAUTH_GOOGLE_CLIENT_ID: optionalText,
  OAUTH_GOOGLE_CLIENT_SECRET: optionalText,
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).max(100).default("groups").catch("groups"),
  /** log2 of scrypt's N for new password hashes (services/auth/password.ts); raise it as hardware grows. */
  PASSWORD_SCRYPT_LOG_N: intVar(14, 10, 20),
  /** A node online but behind its network's routing revision this long raises config.drift. */
  DRIFT_AFTER_SECONDS: intVar(300, 30, 86_400),
  /** Development and tests only: lets webhooks use http://127.0.0.1 / localhost (SSRF rules otherwise refuse loopback). */
  WEBHOOK_ALLOW_HTTP_LOOPBACK: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  WEBHOOK_TIMEOUT_MS: intVar(5000, 500, 30_000),
  AUDIT_RETENTION_DAYS: intVar(365, 1, 3650),
  /** A gateway pool member whose agent has not reported for this long is unhealthy (docs/routing.md). */
  POOL_STALE_SECONDS: intVar(10, 3, 3600),
  /**
   * Reports in a row with a member's probe down that make it unhealthy. 1: the agent already judged the probe
   * down after POOL_PROBE_DOWN_AFTER echoes lost in a row (its hysteresis), and reports that at once.
   */
  POOL_PROBE_FAILURES: intVar(1, 1, 100),
  /** How often an agent sends each probe's echo request (ms). */
  POOL_PROBE_INTERVAL_MS: intVar(100, 100, 5000),
  /** Echoes lost in a row that turn a probe down, and answered in a row that turn it up again (agent side). */
  POOL_PROBE_DOWN_AFTER: intVar(4, 1, 20),
  POOL_PROBE_UP_AFTER: intVar(4, 1, 20),
  /** A member the pool failed away from is not chosen again for this long while another member is healthy. */
  POOL_HOLD_DOWN_SECONDS: intVar(30, 0, 3600),
  /** A pair whose ends have held each other's endpoints this long without a handshake goes onto a relay. */
  NAT_DIRECT_TIMEOUT_SECONDS: intVar(20, 1, 3600),
  /** A relayed pair stays at least this long before direct is taken again (doubling after each failed return, to 1 h). */
  NAT_RELAY_HOLD_SECONDS: intVar(60, 1, 3600),
  /** A learned endpoint not seen again for this long is dropped. */
  NAT_CANDIDATE_TTL_SECONDS: intVar(600, 30, 86400),
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
