import { eq } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { devices } from "../db/schema";
import { unauthorized } from "../lib/errors";
import type { AppEnv } from "../lib/types";
import { sha256 } from "../services/auth/tokens";
import { DEVICE_CREDENTIAL_PREFIX } from "../services/networks/enrolment";
import { bearerToken, requireUser } from "./auth";

/** A device credential is opaque: looked up by its hash, so deleting the device revokes it at once. */
async function authenticateDevice(c: Context<AppEnv>, credential: string) {
  const device = await c.var.db
    .select({ id: devices.id })
    .from(devices)
    .where(eq(devices.credentialHash, sha256(credential)))
    .get();
  if (!device) throw unauthorized("The device credential is not valid");
  c.set("device", { kind: "device", deviceId: device.id });
}

/** Device routes: the device's own credential, or a user's access token (the owner or a group admin). */
export const requireUserOrDevice: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  if (token?.startsWith(DEVICE_CREDENTIAL_PREFIX)) {
    await authenticateDevice(c, token);
    return next();
  }
  return requireUser(c, next);
};

/** Enrolment: a user's token when one is sent; without one the body must carry an enrolment key. */
export const optionalUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.req.header("authorization")) return next();
  return requireUser(c, next);
};
