/**
 * A gateway daemon's report on the nodes it runs (POST /agents/me/report): per node what it applied, its tunnels
 * (the heartbeat's peer lists), its probes and what it could not apply. One type from the zod schema to the network's
 * object (docs/architecture.md, "One wire type per message").
 */
import { z } from "@hono/zod-openapi";
import { sanitisedText } from "../lib/display-name";
import { PeerReportAck, PeerReportBody, ReportedPeers } from "./heartbeat";

export const ReportBody = z
  .strictObject({
    nodes: z
      .array(
        z
          .strictObject({
            nodeId: z.string().min(1).max(64),
            appliedRoutingRevision: z.number().int().min(0),
            appliedDnsRevision: z.number().int().min(0).nullable().default(null),
            peers: ReportedPeers,
            peerReport: PeerReportBody.optional().openapi({
              description: "The delta form of peers (not with peers; docs/scale.md): the node's answer then carries peerReport",
            }),
            probes: z
              .array(
                z.strictObject({
                  acrossNodeId: z.string().min(1).max(64),
                  target: z.string().min(1).max(64),
                  ok: z
                    .boolean()
                    .openapi({ description: "Whether the probe is up (judged by the agent with the desired state's probeRules)" }),
                }),
              )
              .max(32)
              .optional()
              .openapi({
                description:
                  'Results of the probes the desired state asked for. POOL_PROBE_FAILURES reports in a row (default 1) with every probe across a node down make that pool member "not forwarding" (a standby: "unreachable"); one up clears it. Only results of the probes this node\'s desired state names now (same acrossNodeId and target) count; any other result is ignored (the rest of the report is kept).',
              }),
            error: sanitisedText({ max: 500 }).nullable().optional().openapi({
              description:
                "What the daemon could not apply for this node (it keeps running the previous state); null or absent clears a reported error. Stored as one line of visible text: control, bidirectional-formatting and zero-width characters become spaces (docs/agents.md), the report is not refused for them",
            }),
          })
          .refine((node) => node.peers === undefined || node.peerReport === undefined, {
            message: "Send peers or peerReport, not both",
            path: ["peerReport"],
          }),
      )
      .min(1)
      .max(90)
      .openapi({ description: "At most 90 nodes a report (D1 binds at most 100 parameters a statement)" }),
  })
  .openapi("GatewayReport");

export const ReportAck = z
  .object({
    nodes: z.array(
      z.object({
        nodeId: z.string(),
        desiredRoutingRevision: z.number().int(),
        desiredDnsRevision: z.number().int(),
        configChanged: z.boolean(),
        peerReport: PeerReportAck.optional().openapi({ description: "When the node's report carried peerReport" }),
      }),
    ),
  })
  .openapi("GatewayReportAck");

/** The report as the route validated it. */
export type AgentReport = z.infer<typeof ReportBody>;
/** What the daemon says of one node: the Worker hands it to the node's network's object unchanged. */
export type AgentNodeReport = AgentReport["nodes"][number];
/** One forwarding probe's result (gateway pools). */
export type ProbeResult = NonNullable<AgentNodeReport["probes"]>[number];
