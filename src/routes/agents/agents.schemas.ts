import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { AGENT_KINDS, type Agent } from "../../services/agents/registry";
import { Timestamp } from "../../lib/openapi";

export const AgentSchema = z
  .object({
    id: z.string().openapi({ example: "agt_..." }),
    kind: z.enum(AGENT_KINDS),
    name: z.string(),
    regionId: z.string().nullable().openapi({ description: "gateway-manager: the region it manages" }),
    gatewayId: z.string().nullable().openapi({ description: "gateway-daemon: the gateway whose nodes it runs" }),
    version: z.string(),
    status: z.enum(["active", "revoked"]),
    online: z.boolean().openapi({ description: "Seen within OFFLINE_AFTER_SECONDS" }),
    lastSeenAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .openapi("Agent");

export const EnrolmentTokenBody = z
  .strictObject({
    kind: z.enum(AGENT_KINDS),
    regionId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "gateway-manager tokens only, and required there: an existing region" }),
    gatewayId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "gateway-daemon tokens only, and required there: an existing inventory gateway" }),
    expiresInSeconds: z.number().int().min(60).max(604_800).default(3600),
  })
  .refine((body) => (body.kind === "gateway-manager" ? !!body.regionId && !body.gatewayId : !!body.gatewayId && !body.regionId), {
    message: "A gateway-manager token names a regionId; a gateway-daemon token names a gatewayId",
    path: ["kind"],
  })
  .openapi("CreateAgentEnrolmentToken");

export const EnrolmentTokenSchema = z
  .object({
    id: z.string(),
    kind: z.enum(AGENT_KINDS),
    regionId: z.string().nullable(),
    gatewayId: z.string().nullable(),
    expiresAt: Timestamp,
    token: z.string().openapi({ description: "Single use; shown only here" }),
  })
  .openapi("AgentEnrolmentToken");

export const AgentEnrolBody = z
  .strictObject({
    token: z.string().min(1).max(128),
    name: displayName({ min: 1, max: 100 }),
    version: displayName({ max: 64 }).default(""),
  })
  .openapi("AgentEnrol");

export const UpdateAgentBody = z.strictObject({ version: displayName({ max: 64 }) }).openapi("UpdateAgent");

export const AgentListQuery = z.object({
  kind: z.enum(AGENT_KINDS).optional(),
  status: z.enum(["active", "revoked"]).optional(),
});

export const AgentCredentialSchema = z
  .object({
    agent: AgentSchema,
    credential: z.string().openapi({ description: "The agent's bearer credential (agc_…); shown only here" }),
  })
  .openapi("AgentCredential");

export function presentAgent(agent: Agent, offlineAfterSeconds: number, now = Date.now()): z.infer<typeof AgentSchema> {
  return {
    id: agent.id,
    kind: agent.kind,
    name: agent.name,
    regionId: agent.regionId,
    gatewayId: agent.gatewayId,
    version: agent.version,
    status: agent.revokedAt ? "revoked" : "active",
    online: !agent.revokedAt && !!agent.lastSeenAt && now - Date.parse(agent.lastSeenAt) <= offlineAfterSeconds * 1000,
    lastSeenAt: agent.lastSeenAt,
    createdAt: agent.createdAt,
  };
}
