import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import type { AppRouteHandler, UserAuth } from "../../lib/types";
import { hashPassword } from "../../services/auth/password";
import type * as routes from "./users.routes";
import { presentUser } from "./users.schemas";

export function requirePlatformAdmin(auth: UserAuth) {
  if (auth.platformRole !== "admin") throw forbidden("Only platform admins may do this");
}

export const me: AppRouteHandler<typeof routes.me> = async (c) => {
  const user = await c.var.db.select().from(users).where(eq(users.id, c.var.auth.userId)).get();
  if (!user) throw notFound("User");
  return c.json(presentUser(user), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const body = c.req.valid("json");
  const now = nowIso();
  const row = {
    id: newId("usr"), email: body.email, name: body.name, passwordHash: await hashPassword(body.password),
    platformRole: body.platformRole, disabledAt: null, createdAt: now, updatedAt: now,
  };
  const inserted = await c.var.db.insert(users).values(row).onConflictDoNothing().returning({ id: users.id });
  if (inserted.length === 0) throw conflict("A user with this email already exists");
  return c.json(presentUser(row), 201);
};
