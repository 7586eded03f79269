import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { accessOfUser as networksOf, groupsOfUser as membershipsOf } from "../../services/identity/user-views";
import { visibleUser } from "../../services/identity/users";
import type * as routes from "./user-views.routes";

/** Drops the cursor keys the page was built on. */
const strip = <T extends { id: string; createdAt: string }>({ id: _id, createdAt: _at, ...rest }: T) => rest;

export const groupsOfUser: AppRouteHandler<typeof routes.groupsOfUser> = async (c) => {
  const user = await visibleUser(c.var.db, userOf(c), c.req.valid("param").id);
  const { limit, cursor } = c.req.valid("query");
  return c.json(
    toPage(await membershipsOf(c.var.db, user, limit, cursor), limit, ({ id: _cursor, ...row }) => row),
    200,
  );
};

export const accessOfUser: AppRouteHandler<typeof routes.accessOfUser> = async (c) => {
  const user = await visibleUser(c.var.db, userOf(c), c.req.valid("param").id);
  const { limit, cursor } = c.req.valid("query");
  return c.json(toPage(await networksOf(c.var.db, user, limit, cursor), limit, strip), 200);
};
