import { guardedRouter } from "../../middleware/guarded-router";
import * as channels from "./channels.handlers";
import * as channelRoutes from "./channels.routes";
import * as deliveries from "./deliveries.handlers";
import * as deliveryRoutes from "./deliveries.routes";
import * as settings from "./settings.handlers";
import * as settingsRoutes from "./settings.routes";

export const notificationsRouter = guardedRouter("user")
  .openapi(settingsRoutes.getSettings, settings.getSettings)
  .openapi(channelRoutes.list, channels.list)
  .openapi(channelRoutes.create, channels.create)
  .openapi(channelRoutes.get, channels.get)
  .openapi(channelRoutes.update, channels.update)
  .openapi(channelRoutes.remove, channels.remove)
  .openapi(channelRoutes.rotateSecret, channels.rotateSecret)
  .openapi(channelRoutes.test, channels.test)
  .openapi(deliveryRoutes.list, deliveries.list)
  .openapi(deliveryRoutes.get, deliveries.get)
  .openapi(deliveryRoutes.retry, deliveries.retry);
