import type { Context } from "hono";
import { unauthorized } from "../lib/errors";
import type { AppEnv } from "../lib/types";
import { sha256 } from "../services/auth/tokens";
import { readDevice } from "../services/networks/device-authorization";
import { liveAgent } from "./agent-auth";
import { bearerToken, sessionIsLive } from "./auth";

/**
 * A request that waits before it answers (a long poll) checks its credential again once it wakes: a
 * revocation, rotation, logout, disabling or removal that committed while it waited ends it with 401,
 * as it ends every request that starts after it. The authentication middleware checked the credential
 * only when the request began, up to a minute earlier, and what the request answers (configs, zones)
 * includes changes made after the revocation.
 */
export async function assertStillAuthorised(c: Context<AppEnv>) {
  const principal = c.var.principal;
  switch (principal?.kind) {
    case "agent": {
      const now = await liveAgent(c);
      if (now?.id !== principal.agentId) throw unauthorized("The agent credential was revoked or rotated while the request waited");
      return;
    }
    case "device": {
      const credential = bearerToken(c.req.header("authorization")) ?? "";
      const now = await readDevice(c.var.db, { credentialHash: sha256(credential) });
      if (now?.device.id !== principal.deviceId) throw unauthorized("The device credential is no longer valid");
      return;
    }
    case "user":
      if (await sessionIsLive(c.var.db, principal.userId, principal.sessionId, principal.platformRole)) return;
      throw unauthorized("The session has ended; sign in again");
    default:
      throw unauthorized("Valid credentials are required");
  }
}
