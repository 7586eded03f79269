import * as oauth from "oauth4webapi";
import type { Config } from "../../lib/env";
import { notFound } from "../../lib/errors";

export type ProviderId = "github" | "google" | "oidc";

export interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  /** The IdP groups the generic OIDC provider's groups claim lists; null when it sent none (nothing changes then). */
  groups: string[] | null;
}

export interface Provider {
  id: ProviderId;
  client: oauth.Client;
  clientAuth: oauth.ClientAuth;
  scope: string;
  /** OpenID Connect providers get a nonce and must return an ID token. */
  oidc: boolean;
  /** The claim naming the person's IdP groups: the generic OIDC provider's (OIDC_GROUPS_CLAIM); none for the others. */
  groupsClaim?: string;
  /** Plain http is allowed only for a loopback issuer (a provider on the same machine, as in tests). */
  httpOptions: { [oauth.allowInsecureRequests]?: boolean };
  server(): Promise<oauth.AuthorizationServer>;
}

const GITHUB: oauth.AuthorizationServer = {
  issuer: "https://github.com",
  authorization_endpoint: "https://github.com/login/oauth/authorize",
  token_endpoint: "https://github.com/login/oauth/access_token",
};

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const DISCOVERY_TTL_MS = 3_600_000;
const discovered = new Map<string, { at: number; server: Promise<oauth.AuthorizationServer> }>();

function httpOptionsFor(issuer: URL) {
  return issuer.protocol === "http:" && LOOPBACK.has(issuer.hostname) ? { [oauth.allowInsecureRequests]: true } : {};
}

/** OIDC discovery, cached per isolate for an hour (a failed lookup is not cached). */
function discover(issuerUrl: string): Promise<oauth.AuthorizationServer> {
  const cached = discovered.get(issuerUrl);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.server;
  const issuer = new URL(issuerUrl);
  const server = oauth
    .discoveryRequest(issuer, { algorithm: "oidc", ...httpOptionsFor(issuer) })
    .then((response) => oauth.processDiscoveryResponse(issuer, response));
  server.catch(() => discovered.delete(issuerUrl));
  discovered.set(issuerUrl, { at: Date.now(), server });
  return server;
}

function oidcProvider(id: ProviderId, issuer: string, clientId: string, clientSecret: string): Provider {
  return {
    id,
    oidc: true,
    scope: "openid email profile",
    client: { client_id: clientId },
    clientAuth: oauth.ClientSecretBasic(clientSecret),
    httpOptions: httpOptionsFor(new URL(issuer)),
    server: () => discover(issuer),
  };
}

/** Providers are on when their vars/secrets are set; any other name is a 404. */
export function providerFor(config: Config, name: string): Provider {
  if (name === "github" && config.OAUTH_GITHUB_CLIENT_ID && config.OAUTH_GITHUB_CLIENT_SECRET) {
    return {
      id: "github",
      oidc: false,
      scope: "read:user user:email",
      client: { client_id: config.OAUTH_GITHUB_CLIENT_ID },
      clientAuth: oauth.ClientSecretPost(config.OAUTH_GITHUB_CLIENT_SECRET),
      httpOptions: {},
      server: async () => GITHUB,
    };
  }
  if (name === "google" && config.OAUTH_GOOGLE_CLIENT_ID && config.OAUTH_GOOGLE_CLIENT_SECRET) {
    return oidcProvider("google", "https://accounts.google.com", config.OAUTH_GOOGLE_CLIENT_ID, config.OAUTH_GOOGLE_CLIENT_SECRET);
  }
  if (name === "oidc" && config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET) {
    return {
      ...oidcProvider("oidc", config.OIDC_ISSUER, config.OIDC_CLIENT_ID, config.OIDC_CLIENT_SECRET),
      groupsClaim: config.OIDC_GROUPS_CLAIM,
    };
  }
  throw notFound("Sign-in provider");
}

/** GitHub is OAuth 2 without ID tokens: the account id from /user, the verified primary address from /user/emails. */
async function githubIdentity(accessToken: string): Promise<ProviderIdentity> {
  const headers = {
    Authorization: `Bearer ${accessToken}`,
    Accept: "application/vnd.github+json",
    "User-Agent": "wg-overlay-control-plane",
  };
  const [user, emails] = (await Promise.all([
    fetch("https://api.github.com/user", { headers }).then((r) =>
      r.ok ? r.json() : Promise.reject(new Error(`github /user ${r.status}`)),
    ),
    fetch("https://api.github.com/user/emails", { headers }).then((r) => (r.ok ? r.json() : [])),
  ])) as [{ id?: number }, { email: string; primary: boolean; verified: boolean }[]];
  if (typeof user.id !== "number") throw new Error("github /user has no id");
  const primary = emails.find((entry) => entry.primary) ?? null;
  return { subject: String(user.id), email: primary?.email ?? null, emailVerified: primary?.verified === true, groups: null };
}

/** A groups claim: a list of names (or one name); anything else is no claim. */
function groupsOf(claim: unknown): string[] | null {
  if (typeof claim === "string") return [claim];
  if (Array.isArray(claim) && claim.every((name) => typeof name === "string")) return claim as string[];
  return null;
}

/**
 * Subject, email and (for the generic OIDC provider) the groups claim from the validated ID token; from
 * userinfo when the token carries no email, or no groups claim (providers that put it there, as oidc-provider does).
 */
export async function fetchIdentity(
  provider: Provider,
  server: oauth.AuthorizationServer,
  tokens: oauth.TokenEndpointResponse,
): Promise<ProviderIdentity> {
  if (!provider.oidc) return githubIdentity(tokens.access_token);
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!claims) throw new Error("no ID token");
  let email = typeof claims.email === "string" ? claims.email : null;
  let verified = claims.email_verified === true;
  let groups = provider.groupsClaim ? groupsOf(claims[provider.groupsClaim]) : null;
  if (!email || (provider.groupsClaim && !groups)) {
    const response = await oauth.userInfoRequest(server, provider.client, tokens.access_token, provider.httpOptions);
    const info = await oauth.processUserInfoResponse(server, provider.client, claims.sub, response);
    if (!email) {
      email = typeof info.email === "string" ? info.email : null;
      verified = info.email_verified === true;
    }
    if (provider.groupsClaim && !groups) groups = groupsOf(info[provider.groupsClaim]);
  }
  return { subject: claims.sub, email, emailVerified: verified, groups };
}
