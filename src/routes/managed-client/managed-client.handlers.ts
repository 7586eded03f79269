import { deviceOrUserOf, signedInUserOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { assertStillAuthorised } from "../../middleware/still-authorised";
import { deviceConfig } from "../../services/networks/device-config";
import { recordDeviceHeartbeat } from "../../services/networks/device-heartbeat";
import { enrolDevice } from "../../services/networks/enrolment";
import { offlineAfterSeconds } from "../../services/settings/settings";
import { presentDevice } from "../../schemas/devices";
import { presentNode } from "../../schemas/nodes";
import type * as routes from "./managed-client.routes";

export const enrol: AppRouteHandler<typeof routes.enrol> = async (c) => {
  const enrolled = await enrolDevice(c.env, c.var.db, c.req.valid("json"), signedInUserOf(c), auditOf(c, 201));
  const device = presentDevice(enrolled.device, enrolled.node, await offlineAfterSeconds(c.env, c.var.db));
  return c.json({ device, node: presentNode(enrolled.node), config: enrolled.config, deviceToken: enrolled.credential }, 201);
};

/** A long poll (`wait`) checks the credential or session again before it answers: one ended while it waited gets 401. */
export const config: AppRouteHandler<typeof routes.config> = async (c) => {
  const { wait } = c.req.valid("query");
  const answer = await deviceConfig(c.env, c.var.db, deviceOrUserOf(c), c.req.valid("param").id, c.req.valid("json").sinceRevision, wait);
  if (wait > 0) await assertStillAuthorised(c);
  return c.json(answer, 200);
};

export const heartbeat: AppRouteHandler<typeof routes.heartbeat> = async (c) =>
  c.json(
    await recordDeviceHeartbeat(
      c.env,
      c.var.db,
      deviceOrUserOf(c),
      c.req.valid("param").id,
      c.req.valid("json"),
      c.req.header("CF-Connecting-IP") ?? null,
    ),
    200,
  );
