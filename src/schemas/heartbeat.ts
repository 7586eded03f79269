import { z } from "@hono/zod-openapi";
import { Endpoint, PublicKey } from "./nodes";

/** What a device's heartbeat and a gateway daemon's report say of the interface (client and agents routes). */
export const HeartbeatBody = z
  .strictObject({
    appliedRevision: z
      .number()
      .int()
      .min(0)
      .nullable()
      .openapi({ description: "The routing revision the device runs; null before it has applied any config" }),
    endpoint: Endpoint.optional(),
    peers: z
      .array(
        z.strictObject({
          publicKey: PublicKey,
          lastHandshakeAt: z.iso.datetime({ offset: true }).nullable().openapi({ description: "RFC 3339; null when no handshake yet" }),
          rxBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
          txBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
        }),
      )
      .max(1000)
      .optional()
      .openapi({ description: "Every peer of the interface (wg show): replaces what this node reported before; omit to leave it" }),
  })
  .openapi("Heartbeat");
