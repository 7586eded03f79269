import { createHmac } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import type { Db } from "../../db/client";
import { oauthIdentities, oauthStates, users } from "../../db/schema";
import type { Config } from "../../lib/env";
import { ApiError, forbidden, unauthorized } from "../../lib/errors";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import { sameText } from "../../lib/same-text";
import { fetchIdentity, type Provider } from "./oauth-providers";
import { randomToken, sha256 } from "./tokens";

/** How long a user may spend at the provider between start and callback. */
export const OAUTH_STATE_TTL_SECONDS = 600;

/** PKCE verifier and nonce follow from the state (keyed HMAC): nothing secret is stored between the two legs. */
const derive = (config: Config, label: string, state: string) =>
  createHmac("sha256", config.TOKEN_SECRET).update(`oauth-${label}:${state}`).digest("base64url");

export async function authorizationUrl(db: Db, config: Config, provider: Provider, redirectUri: string) {
  const server = await provider.server().catch((error: unknown) => {
    throw new ApiError("bad_gateway", "The sign-in provider could not be reached", { cause: error });
  });
  if (!server.authorization_endpoint) throw new Error("the provider has no authorization endpoint");
  const state = randomToken();
  await db.insert(oauthStates).values({
    id: newId("oas"),
    stateHash: sha256(state),
    provider: provider.id,
    createdAt: nowIso(),
    expiresAt: secondsFromNow(OAUTH_STATE_TTL_SECONDS),
  });
  const url = new URL(server.authorization_endpoint);
  url.searchParams.set("client_id", provider.client.client_id);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", provider.scope);
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(derive(config, "pkce", state)));
  url.searchParams.set("code_challenge_method", "S256");
  if (provider.oidc) url.searchParams.set("nonce", derive(config, "nonce", state));
  return { url: url.toString(), state };
}

/** Library errors about the provider's answer (state, code, PKCE, ID token) are failed sign-ins, not server faults. */
function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof oauth.AuthorizationResponseError) return unauthorized(`The provider refused the sign-in (${error.error})`);
  // A provider outage (5xx, whatever its body) is an upstream failure, not a refused sign-in.
  if (error instanceof oauth.ResponseBodyError && error.status >= 500) return providerDown(error);
  if (error instanceof oauth.OperationProcessingError && error.cause instanceof Response && error.cause.status >= 500) {
    return providerDown(error);
  }
  if (error instanceof oauth.ResponseBodyError) return unauthorized(`The provider refused the code (${error.error})`);
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
    return unauthorized("The provider's answer did not validate");
  }
  return providerDown(error);
}

const providerDown = (cause: unknown) => new ApiError("bad_gateway", "The sign-in provider could not be reached", { cause });

/**
 * The callback leg: the state must be the one this browser started with (cookie), unused and fresh;
 * the code is exchanged with the derived PKCE verifier; the identity resolves to an account, answered with the
 * IdP groups the provider named (null: it named none).
 */
export async function completeAuthorization(
  db: Db,
  config: Config,
  provider: Provider,
  callbackUrl: URL,
  redirectUri: string,
  cookieState: string | undefined,
) {
  const state = callbackUrl.searchParams.get("state");
  if (!state || !cookieState || !sameText(state, cookieState)) {
    throw unauthorized("The sign-in state does not match the one this browser started with");
  }
  const now = nowIso();
  const claimed = await db
    .update(oauthStates)
    .set({ usedAt: now })
    .where(
      and(
        eq(oauthStates.stateHash, sha256(state)),
        eq(oauthStates.provider, provider.id),
        isNull(oauthStates.usedAt),
        gt(oauthStates.expiresAt, now),
      ),
    )
    .returning({ id: oauthStates.id });
  if (claimed.length === 0) throw unauthorized("The sign-in state is unknown, used or expired; start again");

  try {
    const server = await provider.server();
    const params = oauth.validateAuthResponse(server, provider.client, callbackUrl, state);
    const response = await oauth.authorizationCodeGrantRequest(
      server,
      provider.client,
      provider.clientAuth,
      params,
      redirectUri,
      derive(config, "pkce", state),
      provider.httpOptions,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(server, provider.client, response, {
      expectedNonce: provider.oidc ? derive(config, "nonce", state) : oauth.expectNoNonce,
      requireIdToken: provider.oidc,
    });
    const identity = await fetchIdentity(provider, server, tokens);
    return { user: await resolveAccount(db, provider, identity), groups: identity.groups };
  } catch (error) {
    throw asApiError(error);
  }
}

/** (provider, subject) first; otherwise link to the account of a verified email; never create accounts here. */
async function resolveAccount(db: Db, provider: Provider, identity: Awaited<ReturnType<typeof fetchIdentity>>) {
  const linked = await db
    .select({ user: users })
    .from(oauthIdentities)
    .innerJoin(users, eq(users.id, oauthIdentities.userId))
    .where(and(eq(oauthIdentities.provider, provider.id), eq(oauthIdentities.subject, identity.subject)))
    .get();
  if (linked) return linked.user;
  if (!identity.email || !identity.emailVerified) {
    throw forbidden("The provider did not confirm this email address as verified, so it cannot be linked to an account");
  }
  const email = identity.email.trim().toLowerCase();
  const user = await db.select().from(users).where(eq(users.email, email)).get();
  if (!user) throw forbidden("No account uses this email; ask a group owner for an invite or an admin for an account");
  await db
    .insert(oauthIdentities)
    .values({ provider: provider.id, subject: identity.subject, userId: user.id, email, createdAt: nowIso() })
    .onConflictDoNothing();
  return user;
}
