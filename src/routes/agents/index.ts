import { createRouter } from "../../lib/create-router";
import { guardedRouter } from "../../middleware/guarded-router";
import * as agents from "./agents.handlers";
import * as agentRoutes from "./agents.routes";
import * as daemon from "./daemon.handlers";
import * as daemonRoutes from "./daemon.routes";
import * as manager from "./manager.handlers";
import * as managerRoutes from "./manager.routes";
import * as self from "./self.handlers";
import * as selfRoutes from "./self.routes";

/** The agents' own routes (/agents/me…, /agents/enrol) come before /agents/{id}, which would shadow them. */
export const agentsRouter = createRouter()
  .route("/", guardedRouter("public").openapi(selfRoutes.enrol, self.enrol))
  .route(
    "/",
    guardedRouter("agent").openapi(selfRoutes.me, self.me).openapi(selfRoutes.update, self.update).openapi(selfRoutes.rotate, self.rotate),
  )
  .route(
    "/",
    guardedRouter("manager")
      .openapi(managerRoutes.list, manager.list)
      .openapi(managerRoutes.register, manager.register)
      .openapi(managerRoutes.update, manager.update),
  )
  .route(
    "/",
    guardedRouter("daemon")
      .openapi(daemonRoutes.desired, daemon.desired)
      .openapi(daemonRoutes.report, daemon.report)
      .openapi(daemonRoutes.putNode, daemon.putNode),
  )
  .route(
    "/",
    guardedRouter("user")
      .openapi(agentRoutes.createToken, agents.createToken)
      .openapi(agentRoutes.list, agents.list)
      .openapi(agentRoutes.get, agents.get)
      .openapi(agentRoutes.revoke, agents.revoke),
  );
