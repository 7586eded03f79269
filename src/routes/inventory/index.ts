import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./inventory.handlers";
import * as routes from "./inventory.routes";

export const inventoryRouter = guardedRouter("user")
  .openapi(routes.createRegion, handlers.createRegion)
  .openapi(routes.listRegions, handlers.listRegions)
  .openapi(routes.getRegion, handlers.getRegion)
  .openapi(routes.updateRegion, handlers.updateRegion)
  .openapi(routes.deleteRegion, handlers.deleteRegion)
  .openapi(routes.createGateway, handlers.createGateway)
  .openapi(routes.listGateways, handlers.listGateways)
  .openapi(routes.getGateway, handlers.getGateway)
  .openapi(routes.updateGateway, handlers.updateGateway)
  .openapi(routes.deleteGateway, handlers.deleteGateway);
