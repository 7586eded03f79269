// The signed-in user's tokens in <home>/session.json, and calls made with them. Access tokens live
// minutes, so a call refreshes first when fewer than 60 s are left, and once more (then retries once)
// if the server still answers 401, e.g. after a key rotation or a clock that runs fast.
import { ApiError, OperationError } from "./errors.mjs";
import { paths, readJson, removeFile, writeSecretJson } from "./files.mjs";
import { apiRequest } from "./http.mjs";

const REFRESH_MARGIN_MS = 60_000;

/** @typedef {{ api: string, accessToken: string, refreshToken: string, expiresAt: string, email?: string | null }} Session */

/**
 * @param {{ accessToken: string, refreshToken: string, expiresIn: number }} pair
 * @param {string | null} [email] who signed in (kept so `wgo up --email` can tell a session of another account)
 */
export function saveSession(home, api, pair, now = Date.now(), email) {
  /** @type {Session} */
  const session = {
    api,
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    expiresAt: new Date(now + pair.expiresIn * 1000).toISOString(),
    email: email ?? loadSession(home)?.email ?? null,
  };
  writeSecretJson(paths.session(home), session);
  return session;
}

/** @returns {Session | null} */
export function loadSession(home) {
  return readJson(paths.session(home));
}

export function forgetSession(home) {
  removeFile(paths.session(home));
}

/**
 * The session for `api` (null = whichever API the session belongs to). Tokens are only ever sent to
 * the API that issued them.
 * @returns {Session}
 */
export function requireSession(home, api) {
  const session = loadSession(home);
  if (!session) throw new OperationError("not logged in: run `wgo login --email EMAIL` first");
  if (api && api !== session.api) {
    throw new OperationError(`the session in ${paths.session(home)} is for ${session.api}, not ${api}: run \`wgo login --api ${api}\``);
  }
  return session;
}

/** Rotates the refresh token and saves the new pair before anything else can use the old one. */
export async function refreshSession(home, session, now = Date.now) {
  let pair;
  try {
    pair = await apiRequest({
      api: session.api,
      path: "/auth/refresh",
      body: /** @satisfies {import("./api-types.js").RequestBody<"/auth/refresh", "post">} */ ({ refreshToken: session.refreshToken }),
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      throw new ApiError(401, { code: error.code, message: `${error.message}; the session has ended: run \`wgo login\` again` });
    }
    throw error;
  }
  return saveSession(home, session.api, pair, now());
}

/**
 * An API call with the user's access token: refreshed ahead of expiry, refreshed and retried once on 401.
 * @param {{ home: string, api: string | null, now?: () => number }} ctx
 * @param {{ method?: string, path: string, body?: unknown }} request
 */
export async function userRequest(ctx, request) {
  const now = ctx.now ?? Date.now;
  let session = requireSession(ctx.home, ctx.api);
  if (Date.parse(session.expiresAt) - now() < REFRESH_MARGIN_MS) session = await refreshSession(ctx.home, session, now);
  try {
    return await apiRequest({ ...request, api: session.api, token: session.accessToken });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
  }
  session = await refreshSession(ctx.home, session, now);
  return apiRequest({ ...request, api: session.api, token: session.accessToken });
}
