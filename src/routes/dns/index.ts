import { guardedRouter } from "../../middleware/guarded-router";
import * as artifacts from "./artifacts.handlers";
import * as handlers from "./dns.handlers";
import * as routes from "./dns.routes";

export const dnsRouter = guardedRouter("user")
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.replace, handlers.replace)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.corefile, artifacts.corefile)
  .openapi(routes.zonefile, artifacts.zonefile);
