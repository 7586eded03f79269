import { z } from "@hono/zod-openapi";

export const WgoPackage = z
  .object({
    version: z.string().openapi({ example: "0.1.0" }),
    url: z.string().openapi({ description: "Where the package is, on this origin", example: "/api/v1/wgo/wgo-0.1.0.tgz" }),
    sha256: z.string().openapi({ description: "SHA-256 of the package, hex" }),
    bytes: z.number().int(),
    minNode: z.string().openapi({ description: "The oldest Node it runs on", example: "18.16" }),
  })
  .openapi("WgoPackage");

export const ServerVersion = z
  .object({
    version: z.string().openapi({ description: "The control plane's version (package.json)", example: "0.1.0" }),
    wgo: WgoPackage.nullable().openapi({
      description: "The wgo this server serves (GET /install.sh installs it); null when the deployment was built without it",
    }),
  })
  .openapi("ServerVersion");
