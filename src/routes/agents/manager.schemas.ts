import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { Capacity, GatewayHealth, PublicHost, UpdateGatewayBody } from "../../schemas/inventory";

export const RegisterGatewayBody = z
  .strictObject({
    name: displayName({ min: 1, max: 100 }),
    publicHost: PublicHost.nullable().default(null),
    capacity: Capacity.nullable().default(null),
    health: GatewayHealth.default("unknown"),
  })
  .openapi("RegisterGateway");

export const ManagerGatewayUpdateBody = UpdateGatewayBody.extend({ health: GatewayHealth.optional() }).openapi("ManagerGatewayUpdate");
