import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { devices } from "../db/schema";
import { unauthorized } from "../lib/errors";
import type { AgentAuth, AppEnv, DeviceAuth, UserAuth } from "../lib/types";
import { sha256 } from "../services/auth/tokens";
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
  const agent = c.get("agent") as AgentAuth | undefined;
  if (agent) {
    const now = await liveAgent(c);
    if (now?.id !== agent.agentId) throw unauthorized("The agent credential was revoked or rotated while the request waited");
    return;
  }
  const device = c.get("device") as DeviceAuth | undefined;
  if (device) {
    const credential = bearerToken(c.req.header("authorization")) ?? "";
    const row = await c.var.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.credentialHash, sha256(credential)))
      .get();
    if (row?.id !== device.deviceId) throw unauthorized("The device credential is no longer valid");
    return;
  }
  const user = c.get("auth") as UserAuth | undefined;
  if (!user || !(await sessionIsLive(c.var.db, user.userId, user.sessionId, user.platformRole))) {
    throw unauthorized("The session has ended; sign in again");
  }
}
