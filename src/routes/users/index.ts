import { createRouter } from "../../lib/create-router";
import * as handlers from "./users.handlers";
import * as routes from "./users.routes";

export const usersRouter = createRouter()
  .openapi(routes.me, handlers.me)
  .openapi(routes.create, handlers.create);
