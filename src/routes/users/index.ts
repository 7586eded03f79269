import { guardedRouter } from "../../middleware/guarded-router";
import * as me from "./me.handlers";
import * as meRoutes from "./me.routes";
import * as views from "./user-views.handlers";
import * as viewRoutes from "./user-views.routes";
import * as handlers from "./users.handlers";
import * as routes from "./users.routes";

// /users/me routes first: /users/{id} would otherwise take "me" as an id.
export const usersRouter = guardedRouter("user")
  .openapi(meRoutes.me, me.me)
  .openapi(meRoutes.updateMe, me.updateMe)
  .openapi(meRoutes.changePassword, me.changePassword)
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove)
  .openapi(viewRoutes.groupsOfUser, views.groupsOfUser)
  .openapi(viewRoutes.accessOfUser, views.accessOfUser);
