import { z } from "@hono/zod-openapi";
import { sanitisedText } from "../../lib/display-name";
import { LIMITS } from "../../lib/limits";
import { Timestamp } from "../../lib/openapi";
import { parseFlow, parsePortSpec } from "../../core/access-policy/ports";
import { parseSelector } from "../../core/access-policy/selectors";

/** A string the domain parser must accept: its reason becomes the field's message (422 with the path). */
const parsed = (parse: (text: string) => { ok: true } | { ok: false; reason: string }, example: string, description: string) =>
  z
    .string()
    .min(1)
    .max(320)
    .superRefine((text, ctx) => {
      const result = parse(text);
      if (!result.ok) ctx.addIssue({ code: "custom", message: `${JSON.stringify(text)}: ${result.reason}` });
    })
    .openapi({ example, description });

const Selector = parsed(
  parseSelector,
  "tag:web",
  '"*", "tag:<name>", "node:<id>", "user:<email>", "role:<owner|admin|member|viewer>" or a CIDR',
);
const Selectors = z.array(Selector).min(1).max(LIMITS.accessSelectorsPerSide);
const PortSpec = parsed(parsePortSpec, "tcp:443", '"*", "icmp", "tcp", "udp", "tcp:443" or "udp:5000-5100"');

export const AccessRuleSchema = z
  .strictObject({
    action: z.enum(["allow", "deny"]).openapi({ description: "A deny beats every allow" }),
    src: Selectors.openapi({ description: "Who sends: nodes named by selector" }),
    dst: Selectors.openapi({
      description: "What they may reach: nodes, or parts of destinations routed through via_gateway policies (a CIDR)",
    }),
    ports: z.array(PortSpec).min(1).max(LIMITS.accessPortsPerRule),
    expiresAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .openapi({ description: "After this the rule is ignored, without another write" }),
    description: sanitisedText({ max: 200 })
      .nullable()
      .optional()
      .openapi({ description: "A note for people; stored as one line of visible text" }),
  })
  .openapi("AccessRule");

export const AccessTestSchema = z
  .strictObject({
    src: Selector.openapi({ description: "Every node this selector names is tested" }),
    dst: z
      .string()
      .min(1)
      .max(320)
      .openapi({ example: "tag:web", description: "A selector, or one address (a node's or a routed host's)" }),
    port: parsed(parseFlow, "tcp:22", 'One flow: "icmp", "tcp:22", "udp:53"'),
    expect: z.enum(["allow", "deny"]),
  })
  .openapi("AccessTest");

export const AccessPolicyBody = z
  .strictObject({
    rules: z.array(AccessRuleSchema).max(LIMITS.accessRules),
    tests: z.array(AccessTestSchema).max(LIMITS.accessTests).default([]),
  })
  .openapi("AccessPolicyDocument", { description: "The whole policy: a PUT replaces it (a PUT whose tests fail changes nothing)" });

export const AccessPolicySchema = z
  .object({
    networkId: z.string(),
    mode: z.enum(["open", "policy"]).openapi({ description: "open: every node reaches every node; policy: only the rules allow" }),
    revision: z.number().int().openapi({ description: "0 before the first PUT; send it back as If-Match to refuse a stale write (412)" }),
    rules: z.array(AccessRuleSchema),
    tests: z.array(AccessTestSchema),
    updatedAt: Timestamp.nullable(),
    updatedBy: z.string().nullable(),
  })
  .openapi("AccessPolicy");

export const AccessPreviewSchema = z
  .object({
    peers: z.array(z.object({ nodeId: z.string(), added: z.array(z.string()), removed: z.array(z.string()) })).openapi({
      description: "Per node whose peers change: the node ids it would gain and lose",
    }),
    flows: z
      .array(z.object({ from: z.array(z.string()), to: z.array(z.string()), gained: z.array(z.string()), lost: z.array(z.string()) }))
      .openapi({ description: "Groups of nodes alike on both sides: the ports `from` would gain and lose towards `to`" }),
    truncated: z.boolean().openapi({ description: "More changed than listed (1,000 of each); nodesChanged stays exact" }),
    nodesChanged: z.number().int(),
    failingTests: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .openapi({ description: "The tests a PUT of this document would fail on" }),
  })
  .openapi("AccessPreview");

export const AccessCheckQuery = z.object({
  src: z.string().min(1).max(64).openapi({ description: "The sending node's id", example: "node_..." }),
  dst: z
    .string()
    .min(1)
    .max(64)
    .openapi({ description: "A node id, or one address (a node's or a routed host's)", example: "192.168.1.10" }),
  port: z.string().min(1).max(16).openapi({ description: 'One flow: "icmp", "tcp:443", "udp:53"', example: "tcp:443" }),
});

export const AccessCheckSchema = z
  .object({
    allowed: z.boolean(),
    rule: AccessRuleSchema.extend({ index: z.number().int().openapi({ description: "Its position in the document's rules" }) })
      .nullable()
      .openapi({ description: "The rule that decided; null when the mode's default did (open: allow; policy: deny)" }),
  })
  .openapi("AccessCheck");

export const AccessSourcesQuery = z.object({
  dst: z.string().min(1).max(64).openapi({ description: "The destination node's id", example: "node_..." }),
});

export const AccessSourcesSchema = z
  .object({
    networkId: z.string(),
    mode: z.enum(["open", "policy"]),
    revision: z.number().int().openapi({ description: "The access policy revision the answer was read at" }),
    dst: z.string(),
    sources: z
      .array(
        z.object({
          nodeIds: z.array(z.string()).openapi({
            description:
              "Nodes alike towards dst (the same ports, decided by the same rules), in address order; cut once 1,000 ids are listed",
          }),
          nodeCount: z.number().int().openapi({ description: "How many nodes the group holds (nodeIds may list fewer)" }),
          ports: z.array(z.string()).openapi({ description: 'What they may send dst: "tcp:443", "icmp", "*"…' }),
          allowedBy: z.array(z.number().int()).openapi({ description: "Indexes of the allows that give the ports; empty in open mode" }),
          deniedBy: z.array(z.number().int()).openapi({ description: "Indexes of the denies that take ports away from those allows" }),
        }),
      )
      .openapi({ description: "Every node that may send dst something, by groups of nodes alike" }),
    truncated: z
      .boolean()
      .openapi({ description: "More nodes may reach dst than ids listed (1,000): every group is still listed, with its nodeCount" }),
    nodesAllowed: z.number().int(),
  })
  .openapi("AccessSources");
