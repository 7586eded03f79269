import { createRoute } from "@hono/zod-openapi";
import { jsonResponse } from "../../lib/openapi";
import { ServerVersion } from "./wgo.schemas";

export const version = createRoute({
  method: "get",
  path: "/version",
  operationId: "getVersion",
  tags: ["Health"],
  summary: "The server's version and the wgo it serves",
  description:
    "Public. `wgo version` compares it with its own and says when the server is newer; `GET /api/v1/install.sh` installs that wgo.",
  responses: { 200: jsonResponse(ServerVersion, "The versions") },
});
