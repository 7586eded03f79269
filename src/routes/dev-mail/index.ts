import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../lib/create-router";
import { getConfig } from "../../lib/env";
import { ApiError } from "../../lib/errors";
import { errorResponses, jsonResponse, Timestamp } from "../../lib/openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { readDevMail } from "../../services/mail/dev-transport";

const DevMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: Timestamp,
}).openapi("DevMail");

/** Runs before query validation, so with the transport off the route looks exactly like no route at all. */
const onlyInDevelopment: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (getConfig(c.env).MAIL_TRANSPORT !== "dev") throw new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}`);
  await next();
};

export const listDevMail = createRoute({
  method: "get", path: "/dev/mail", tags: ["Development"], middleware: [onlyInDevelopment],
  summary: "Mail the development transport stored for an address, newest first (MAIL_TRANSPORT=dev only)",
  description: "Answers 404 unless MAIL_TRANSPORT is `dev`: never enable that in production (anyone could read reset tokens).",
  request: {
    query: z.object({
      to: z.email().max(254),
      limit: z.coerce.number().int().min(1).max(50).default(10),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ items: z.array(DevMailSchema) }).openapi("DevMailList"), "Stored messages"),
    ...errorResponses(404, 422),
  },
});

const handler: AppRouteHandler<typeof listDevMail> = async (c) => {
  const { to, limit } = c.req.valid("query");
  const rows = await readDevMail(c.var.db, to, limit);
  return c.json({ items: rows.map((row) => ({ id: row.id, to: row.recipient, subject: row.subject, text: row.text, createdAt: row.createdAt })) }, 200);
};

/** Off unless MAIL_TRANSPORT=dev: then the README's dev flow and the tests read tokens from here. */
export const devMailRouter = createRouter().openapi(listDevMail, handler);
