import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { getConfig } from "../../lib/env";
import { ApiError } from "../../lib/errors";
import { errorResponses, jsonResponse } from "../../lib/openapi";
import type { AppEnv } from "../../lib/types";
import { DevMailQuery, DevMailSchema } from "./dev-mail.schemas";

/** Runs before query validation, so with the transport off the route looks exactly like no route at all. */
const onlyInDevelopment: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (getConfig(c.env).MAIL_TRANSPORT !== "dev") throw new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}`);
  await next();
};

export const listDevMail = createRoute({
  method: "get",
  path: "/dev/mail",
  operationId: "listDevMail",
  tags: ["Development"],
  middleware: [onlyInDevelopment],
  summary: "Mail the development transport stored for an address, newest first (MAIL_TRANSPORT=dev only)",
  description:
    "Public, and development only. " +
    "Answers 404 unless MAIL_TRANSPORT is `dev`: never enable that in production (anyone could read reset tokens).",
  request: { query: DevMailQuery },
  responses: {
    200: jsonResponse(z.object({ items: z.array(DevMailSchema) }).openapi("DevMailList"), "Stored messages"),
    ...errorResponses(404, 422),
  },
});
