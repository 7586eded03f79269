import { guardedRouter } from "../../middleware/guarded-router";
import * as assignments from "./gateway-assignments.handlers";
import * as assignmentRoutes from "./gateway-assignments.routes";
import * as groups from "./groups.handlers";
import * as groupRoutes from "./groups.routes";
import * as members from "./members.handlers";
import * as memberRoutes from "./members.routes";

export const groupsRouter = guardedRouter("user")
  .openapi(groupRoutes.create, groups.create)
  .openapi(groupRoutes.list, groups.list)
  .openapi(groupRoutes.get, groups.get)
  .openapi(groupRoutes.update, groups.update)
  .openapi(groupRoutes.remove, groups.remove)
  .openapi(memberRoutes.list, members.list)
  .openapi(memberRoutes.add, members.add)
  .openapi(memberRoutes.update, members.update)
  .openapi(memberRoutes.remove, members.remove)
  .openapi(assignmentRoutes.list, assignments.list)
  .openapi(assignmentRoutes.create, assignments.create)
  .openapi(assignmentRoutes.remove, assignments.remove);
