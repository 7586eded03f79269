import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";

const InventoryId = z.string().min(1).max(64);

export const GatewayAssignmentSchema = z
  .object({
    id: z.string().openapi({ example: "gwa_..." }),
    groupId: z.string(),
    gatewayId: z.string().nullable().openapi({ description: "The assigned gateway (null when a region is assigned)" }),
    regionId: z
      .string()
      .nullable()
      .openapi({ description: "The assigned region: every gateway in it, present and future (null when one gateway is assigned)" }),
    createdBy: z.string().nullable().openapi({
      description: "The platform admin who assigned it; null for assignments the upgrade back-filled or whose author was deleted",
    }),
    createdAt: Timestamp,
  })
  .openapi("GatewayAssignment");

export const CreateGatewayAssignmentBody = z
  .union([z.strictObject({ gatewayId: InventoryId }), z.strictObject({ regionId: InventoryId })])
  .openapi("CreateGatewayAssignment", { description: "Exactly one of gatewayId (one gateway) or regionId (every gateway of a region)" });

export const AssignmentParams = z.object({
  id: InventoryId.openapi({ param: { name: "id", in: "path" }, example: "grp_...", description: "Group id" }),
  assignmentId: InventoryId.openapi({
    param: { name: "assignmentId", in: "path" },
    example: "gwa_...",
    description: "Gateway assignment id",
  }),
});
