import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { ConfigDeltaSchema, NodeConfigSchema } from "../../schemas/node-config";
import { DeviceSchema } from "../../schemas/devices";
import { PeerReportAck } from "../../wire/heartbeat";
import { NodeName, NodeSchema } from "../../schemas/nodes";
import { PublicKey } from "../../wire/fields";

export const EnrolBody = z
  .strictObject({
    networkId: z.string().min(1).max(64).optional().openapi({ description: "Required with a user token; implied by an enrolment key" }),
    name: NodeName,
    publicKey: PublicKey,
    platform: displayName({ max: 64 }).default(""),
    clientVersion: displayName({ max: 64 }).default(""),
    enrolmentKey: z.string().min(1).max(128).optional().openapi({
      description:
        "Headless enrolment instead of a user token: a key (ek_…) from POST /networks/{id}/enrolment-keys, unexpired, unrevoked and under its usage limit; it names the network",
    }),
  })
  .openapi("EnrolDevice");

export const EnrolmentSchema = z
  .object({
    device: DeviceSchema,
    node: NodeSchema,
    config: NodeConfigSchema,
    deviceToken: z.string().openapi({ description: "The device's own bearer credential (dvc_…), shown once; keep it secret" }),
  })
  .openapi("DeviceEnrolment");

export const ConfigRequestBody = z
  .strictObject({
    sinceRevision: z.number().int().min(0).optional().openapi({
      description: "The routingRevision of the config the device holds: the answer is then a delta when the server can compute one",
    }),
  })
  .openapi("DeviceConfigRequest");

/** A device's long poll is held in its network's writer (no D1 read while it waits), so it may be long. */
export const MAX_DEVICE_WAIT_SECONDS = 60;

export const ConfigQuery = z.object({
  wait: z.coerce.number().int().min(0).max(MAX_DEVICE_WAIT_SECONDS).default(0).openapi({
    description:
      "Long poll, in seconds (0-60, default 0), with `sinceRevision` in the body: the answer waits until the network's routing revision is no longer the one the device holds (then the delta), or the time is up (then an empty delta at the same revision). Without sinceRevision it is ignored.",
    example: 25,
  }),
});

export const DeviceConfigSchema = z
  .union([z.object({ deviceId: z.string(), config: NodeConfigSchema }), z.object({ deviceId: z.string(), delta: ConfigDeltaSchema })])
  .openapi("DeviceConfig", {
    description:
      "The whole config; or, when the request named the revision the device holds and the server still knows it, only what changed",
  });

export const HeartbeatAckSchema = z
  .object({
    desiredRevision: z.number().int(),
    configChanged: z.boolean().openapi({ description: "True when the device should fetch its config again" }),
    peerReport: PeerReportAck.optional().openapi({
      description: "When the heartbeat carried peerReport: its seq, or a request for a full report",
    }),
  })
  .openapi("HeartbeatAck");
