import { z } from "@hono/zod-openapi";
import { endpointHostProblem } from "../net/endpoint";
import { isWireGuardKey } from "../net/wireguard-key";

/** Fields of a WireGuard peer as nodes, devices and gateway daemons send them. */
export const PublicKey = z.string().refine(isWireGuardKey, "A WireGuard public key: 32 bytes in base64 (44 characters)")
  .openapi({ example: "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=" });

const HOST = String.raw`(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)`;
export const Endpoint = z.string().trim().max(260)
  .regex(new RegExp(`^${HOST}:(?:[1-9]\\d{0,3}|[1-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5])$`), "host:port, [IPv6]:port")
  .superRefine((endpoint, ctx) => {
    const problem = endpointHostProblem(endpoint);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({ example: "gw1.example.net:51820" });
