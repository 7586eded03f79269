import type { MiddlewareHandler } from "hono";
import { unauthorized } from "../lib/errors";
import type { AppEnv } from "../lib/types";
import { sha256 } from "../services/auth/tokens";
import { readDevice } from "../services/networks/device-authorization";
import { DEVICE_CREDENTIAL_PREFIX } from "../services/networks/enrolment";
import { bearerToken, requireUser } from "./auth";

/**
 * A device credential is opaque: looked up by its hash, so deleting the device revokes it at once. The one
 * statement that finds it also reads the device's node, network and owner's standing, which the handler
 * then uses as read (services/networks/device-authorization.ts) instead of reading them again.
 */
export const requireDevice: MiddlewareHandler<AppEnv> = async (c, next) => {
  const credential = bearerToken(c.req.header("authorization"));
  const standing = credential?.startsWith(DEVICE_CREDENTIAL_PREFIX)
    ? await readDevice(c.var.db, { credentialHash: sha256(credential) })
    : null;
  if (!standing) throw unauthorized("The device credential is not valid");
  c.set("principal", { kind: "device", deviceId: standing.device.id, standing });
  await next();
};

/** Device routes: the device's own credential, or a user's access token (the owner or a group admin). */
export const requireDeviceOrUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  return token?.startsWith(DEVICE_CREDENTIAL_PREFIX) ? requireDevice(c, next) : requireUser(c, next);
};
