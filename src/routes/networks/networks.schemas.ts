import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { Timestamp } from "../../lib/openapi";
import { domainLengthProblem } from "../../core/dns";
import { CidrString } from "../../schemas/cidr";
import { overlayRangeProblem, parseCidr } from "../../core/net/cidr";

/** A network's own range: a CIDR that can hold interface addresses (no loopback, link-local, multicast, /0…). */
const NetworkCidr = CidrString.superRefine((cidr, ctx) => {
  const parsed = typeof cidr === "string" ? parseCidr(cidr) : undefined;
  const problem = parsed?.ok ? overlayRangeProblem(parsed.cidr) : null;
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}).openapi({
  example: "10.20.0.0/24",
  description: "IPv4 or IPv6 CIDR with zero host bits, in unicast space: RFC 1918, 100.64.0.0/10, fc00::/7 (ULA) or global unicast you own",
});

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
export const DnsDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(new RegExp(`^${LABEL}(?:\\.${LABEL})*$`), "A domain name of letters, digits and hyphens, e.g. corp.internal")
  .superRefine((domain, ctx) => {
    const problem = domainLengthProblem(domain);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({ example: "corp.internal" });

const NetworkName = displayName({ min: 1, max: 100 });

const AccessMode = z.enum(["open", "policy"]).openapi({
  description:
    "open: every node may reach every node; policy: only the access policy's rules allow (docs/access.md). Entering policy runs the policy's tests first.",
});

export const NetworkSchema = z
  .object({
    id: z.string().openapi({ example: "net_..." }),
    groupId: z.string(),
    name: z.string(),
    cidr: z.string(),
    dnsDomain: z.string(),
    routingRevision: z.number().int(),
    dnsRevision: z.number().int(),
    accessMode: AccessMode,
    accessRevision: z
      .number()
      .int()
      .openapi({ description: "The access policy in force (GET /networks/{id}/access-policy); 0 before the first" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Network");

export const CreateNetworkBody = z
  .strictObject({
    groupId: z.string().min(1).max(64),
    name: NetworkName,
    cidr: NetworkCidr,
    dnsDomain: DnsDomain.optional().openapi({ description: "Defaults to <name>.internal" }),
  })
  .openapi("CreateNetwork");

export const PatchNetworkBody = z
  .strictObject({
    name: NetworkName.optional(),
    cidr: NetworkCidr.optional(),
    dnsDomain: DnsDomain.optional(),
    accessMode: AccessMode.optional(),
  })
  .openapi("PatchNetwork");

export const PutNetworkBody = z
  .strictObject({
    name: NetworkName,
    cidr: NetworkCidr,
    dnsDomain: DnsDomain,
    accessMode: AccessMode.optional().openapi({ description: "Unchanged when absent" }),
  })
  .openapi("ReplaceNetwork");

export const NetworkListQuery = z.object({
  groupId: z.string().max(64).optional().openapi({ description: "Only networks of this group" }),
});

/** "Branch Office #2" → "branch-office-2.internal". */
export function defaultDnsDomain(name: string): string {
  const label = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");
  return `${label || "network"}.internal`;
}

const PlaneStatus = z.object({
  desiredRevision: z.number().int(),
  appliedRevision: z
    .number()
    .int()
    .nullable()
    .openapi({ description: "Oldest revision any reporter runs; null while one has not reported" }),
  inSync: z.boolean(),
  lagging: z.array(z.string()).openapi({
    description:
      "Reporters behind the desired revision (nodes for routing, gateway nodes for DNS). These lists leave out another member's device nodes (counted in appliedRevision and inSync, not named)",
  }),
});

export const RuntimeStatusSchema = z
  .object({
    networkId: z.string(),
    routing: PlaneStatus.extend({
      unreported: z.array(z.string()).openapi({ description: "Nodes that never reported" }),
      failing: z
        .array(z.object({ nodeId: z.string(), error: z.string() }))
        .openapi({ description: "Nodes whose agents report a desired state they could not apply (they keep the previous one)" }),
    }),
    dns: PlaneStatus,
  })
  .openapi("RuntimeStatus");
