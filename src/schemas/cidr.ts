import { z } from "@hono/zod-openapi";
import { parseCidr } from "../core/net/cidr";

/** A CIDR, validated and normalised: host bits set, bad prefixes and non-addresses are 422. */
export const CidrString = z
  .string()
  .max(64)
  .transform((text, ctx) => {
    const parsed = parseCidr(text.trim());
    if (parsed.ok) return parsed.cidr.text;
    ctx.addIssue({ code: "custom", message: parsed.reason });
    return z.NEVER;
  })
  .openapi({ example: "10.20.0.0/24", description: "IPv4 or IPv6 CIDR with zero host bits" });
