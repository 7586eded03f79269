/**
 * A heartbeat: what a device says of itself and its tunnels (POST /client/devices/:id/heartbeat), one type from
 * its zod schema to the network's object, which stores it as it came (docs/architecture.md, "One wire type per
 * message"). Its peer lists are also the gateway daemon's (agent-report.ts).
 */
import { z } from "@hono/zod-openapi";
import { Counter, Endpoint, LiteralEndpoint, PublicKey } from "./fields";

const PeerEndpoint = LiteralEndpoint.openapi({
  description: "Where the reporter's WireGuard last heard this peer from (wg show endpoints); omitted when it never did",
});

/** The old form: every peer of the interface in one array (small interfaces, old clients). */
export const ReportedPeers = z
  .array(
    z.strictObject({
      publicKey: PublicKey,
      lastHandshakeAt: z.iso.datetime({ offset: true }).nullable().openapi({ description: "RFC 3339; null when no handshake yet" }),
      rxBytes: Counter,
      txBytes: Counter,
      endpoint: PeerEndpoint.optional(),
    }),
  )
  .max(1000)
  .optional()
  .openapi({
    description:
      "Every peer of the interface (wg show): replaces what this node reported before; omit to leave it. A 64 KiB body holds about 600 of these, so an interface with more peers sends peerReport instead.",
  });

/** Most a peerReport request carries of each list; the 64 KiB body limit binds first (about 700 changed peers). */
export const PEER_REPORT_MAX = 1000;

/**
 * The delta form (docs/scale.md "Peer reports"): only what changed since the report the server last
 * accepted from this node, in compact tuples, in pages when it does not fit one body.
 */
export const PeerReportBody = z
  .strictObject({
    base: z.number().int().min(0).nullable().openapi({
      description:
        "The seq of the last report the server accepted from this node (its answer's peerReport.seq), which this one builds on; null starts a full report: every peer that carried something, the server's other rows of this node go when it completes",
    }),
    changed: z
      .array(
        z.tuple([PublicKey, Counter, Counter, Counter, PeerEndpoint.optional()]).openapi({
          description:
            "[publicKey, latest handshake in Unix seconds (0: never), rxBytes, txBytes, endpoint?]: the fifth, where the reporter's WireGuard last heard the peer from, is left out when it never did (and by clients from before NAT paths)",
          example: ["xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=", 1763719200, 1234, 5678, "198.51.100.7:51820"],
          // OpenAPI 3.1: at most the five prefixItems, nothing after them (`items` that no value matches;
          // the linters want an `items` beside every array).
          items: { not: {} },
        } as { description: string }),
      )
      .max(PEER_REPORT_MAX)
      .openapi({
        description:
          "Peers whose handshake or counters changed since the base (in a full report: every peer with a handshake or bytes). A peer that never handshook and carried no bytes is never sent and has no tunnel row.",
      }),
    removed: z
      .array(PublicKey)
      .max(PEER_REPORT_MAX)
      .default([])
      .openapi({ description: "Peers the base had that left the interface (or whose counters were reset): their rows go" }),
    more: z.boolean().default(false).openapi({
      description:
        "More pages of this report follow (each builds on the seq the previous one was answered); a full report completes on its last page",
    }),
  })
  .openapi("PeerReport");

export const PeerReportAck = z
  .object({
    seq: z.number().int().nullable().openapi({ description: "The base of the next report; null with resync" }),
    resync: z.boolean().openapi({
      description:
        "The server holds no report this one builds on (base unknown or out of date): nothing of it was stored; send a full report (base null)",
    }),
  })
  .openapi("PeerReportAck");

/** What a device's heartbeat and a gateway daemon's report say of the interface (client and agents routes). */
export const HeartbeatBody = z
  .strictObject({
    appliedRevision: z
      .number()
      .int()
      .min(0)
      .nullable()
      .openapi({ description: "The routing revision the device runs; null before it has applied any config" }),
    endpoint: Endpoint.optional(),
    localEndpoints: z.array(LiteralEndpoint).max(8).optional().openapi({
      description:
        "The reporter's own endpoints on its LAN: each address of its underlay interfaces with the WireGuard listen port (docs/nat.md). Nodes behind the same NAT reach each other there",
    }),
    peers: ReportedPeers,
    peerReport: PeerReportBody.optional().openapi({
      description: "The delta form of peers (not with peers); the answer then carries peerReport",
    }),
  })
  .refine((body) => body.peers === undefined || body.peerReport === undefined, {
    message: "Send peers or peerReport, not both",
    path: ["peerReport"],
  })
  .openapi("Heartbeat");

/** A heartbeat as the route validated it: the Worker hands it to the network's object unchanged. */
export type Heartbeat = z.infer<typeof HeartbeatBody>;
/** One peer of the interface as a reporter describes it (the full form; the delta's tuples become these once admitted). */
export type ReportedPeer = NonNullable<z.infer<typeof ReportedPeers>>[number];
/** The delta form of a reporter's peers (docs/scale.md "Peer reports"). */
export type PeerReport = z.infer<typeof PeerReportBody>;
/** The answer to a peer report: the next base, or a request for a full report. */
export type PeerReportAnswer = { seq: number; resync: false } | { seq: null; resync: true };
