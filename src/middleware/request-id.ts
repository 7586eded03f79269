import type { MiddlewareHandler } from "hono";
import { newId } from "../lib/ids";
import type { AppEnv } from "../lib/types";

const SAFE_INCOMING = /^[A-Za-z0-9._-]{8,64}$/;

/** Echoes a well-formed incoming X-Request-Id (so traces join up) or mints one; every response carries it. */
export const requestId = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const id = incoming && SAFE_INCOMING.test(incoming) ? incoming : newId("req");
  c.set("requestId", id);
  await next();
  c.res.headers.set("X-Request-Id", id);
};
