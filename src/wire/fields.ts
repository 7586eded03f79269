/** The fields machine messages are made of (heartbeats, agents' reports) and the API shares with them. */
import { z } from "@hono/zod-openapi";
import { endpointHostProblem, isLiteralEndpoint } from "../core/net/endpoint";
import { isWireGuardKey } from "../core/net/wireguard-key";

export const PublicKey = z
  .string()
  .refine(isWireGuardKey, "A WireGuard public key: 32 bytes in base64 (44 characters)")
  .openapi({ example: "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=" });

const HOST = String.raw`(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)`;
export const Endpoint = z
  .string()
  .trim()
  .max(260)
  .regex(new RegExp(`^${HOST}:(?:[1-9]\\d{0,3}|[1-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5])$`), "host:port, [IPv6]:port")
  .superRefine((endpoint, ctx) => {
    const problem = endpointHostProblem(endpoint);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({ example: "gw1.example.net:51820" });

/** A byte counter as WireGuard reports one. */
export const Counter = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A literal address and port, as `wg show endpoints` prints one: what NAT paths are learned from (docs/nat.md). */
export const LiteralEndpoint = z
  .string()
  .max(64)
  .refine(isLiteralEndpoint, { message: "Must be IPv4:port or [IPv6]:port with a literal address" })
  .openapi({ example: "198.51.100.7:51820" });
