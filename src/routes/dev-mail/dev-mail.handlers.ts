import type { AppRouteHandler } from "../../lib/types";
import { readDevMail } from "../../services/mail/dev-transport";
import type * as routes from "./dev-mail.routes";
import { presentDevMail } from "./dev-mail.schemas";

export const listDevMail: AppRouteHandler<typeof routes.listDevMail> = async (c) => {
  const { to, limit } = c.req.valid("query");
  return c.json({ items: (await readDevMail(c.var.db, to, limit)).map(presentDevMail) }, 200);
};
