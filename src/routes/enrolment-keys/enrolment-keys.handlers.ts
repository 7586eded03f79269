import { and, asc, eq, isNull } from "drizzle-orm";
import { enrolmentKeys } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { networkAccess } from "../../services/access";
import { randomToken, sha256 } from "../../services/auth/tokens";
import { ENROLMENT_KEY_PREFIX } from "../../services/networks/enrolment-keys";
import type * as routes from "./enrolment-keys.routes";

const present = ({ keyHash: _secret, createdBy: _creator, updatedAt: _updated, ...key }: typeof enrolmentKeys.$inferSelect) => key;

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { network } = await networkAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  const body = c.req.valid("json");
  const key = `${ENROLMENT_KEY_PREFIX}${randomToken()}`;
  const now = nowIso();
  const row = {
    id: newId("ek"), networkId: network.id, name: body.name, keyHash: sha256(key), createdBy: c.var.auth.userId,
    expiresAt: secondsFromNow(body.expiresInSeconds), usageLimit: body.usageLimit,
    usedCount: 0, revokedAt: null, createdAt: now, updatedAt: now,
  };
  await c.var.db.insert(enrolmentKeys).values(row);
  return c.json({ ...present(row), key }, 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { network } = await networkAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  const { limit, cursor } = c.req.valid("query");
  const rows = await c.var.db.select().from(enrolmentKeys)
    .where(and(eq(enrolmentKeys.networkId, network.id), afterCursor(enrolmentKeys, cursor)))
    .orderBy(asc(enrolmentKeys.createdAt), asc(enrolmentKeys.id)).limit(limit + 1).all();
  return c.json(toPage(rows, limit, present), 200);
};

export const revoke: AppRouteHandler<typeof routes.revoke> = async (c) => {
  const { id, keyId } = c.req.valid("param");
  const { network } = await networkAccess(c.var.db, c.var.auth, id, "manage");
  const key = await c.var.db.select({ id: enrolmentKeys.id }).from(enrolmentKeys)
    .where(and(eq(enrolmentKeys.id, keyId), eq(enrolmentKeys.networkId, network.id))).get();
  if (!key) throw notFound("Enrolment key");
  await c.var.db.update(enrolmentKeys).set({ revokedAt: nowIso() })
    .where(and(eq(enrolmentKeys.id, keyId), isNull(enrolmentKeys.revokedAt)));
  return c.body(null, 204);
};
