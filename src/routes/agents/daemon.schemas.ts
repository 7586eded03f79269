import { z } from "@hono/zod-openapi";
import { HeartbeatBody } from "../../schemas/heartbeat";
import { NodeConfigSchema } from "../../schemas/node-config";

export const DesiredState = z
  .object({
    gatewayId: z.string(),
    nodes: z.array(
      z.object({
        networkId: z.string(),
        nodeId: z.string(),
        config: NodeConfigSchema,
        dns: z.object({ domain: z.string(), revision: z.number().int(), corefile: z.string(), zonefile: z.string() }),
      }),
    ),
  })
  .openapi("GatewayDesiredState");

export const ReportBody = z
  .strictObject({
    nodes: z
      .array(
        z.strictObject({
          nodeId: z.string().min(1).max(64),
          appliedRoutingRevision: z.number().int().min(0),
          appliedDnsRevision: z.number().int().min(0).nullable().default(null),
          peers: HeartbeatBody.shape.peers,
        }),
      )
      .min(1)
      .max(90)
      .openapi({ description: "At most 90 nodes a report (D1 binds at most 100 parameters a statement)" }),
  })
  .openapi("GatewayReport");

export const ReportAck = z
  .object({
    nodes: z.array(
      z.object({
        nodeId: z.string(),
        desiredRoutingRevision: z.number().int(),
        desiredDnsRevision: z.number().int(),
        configChanged: z.boolean(),
      }),
    ),
  })
  .openapi("GatewayReportAck");
