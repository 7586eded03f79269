import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { devices, nodes } from "../../../db/schema";
import { type PathReport, pathPeersOf } from "./nat-paths";
import { replaceObservations, type TunnelObservation } from "./observations";
import { type AdmittedDelta, fullReportColumns, mergeDeltas, peerDeltaStatements, peerReportColumns } from "./peer-reports";

/** A heartbeat (device-heartbeat.ts) once admitted: what the writer stores for its node and device. */
export interface AdmittedHeartbeat {
  networkId: string;
  nodeId: string;
  deviceId: string;
  appliedRevision: number | null;
  endpoint: string | null;
  /** The old full form: every peer, replacing the node's rows. */
  peers: TunnelObservation[] | undefined;
  /** The delta form, once accepted (operations/peer-reports.ts). */
  delta?: AdmittedDelta;
  /** Its LAN endpoints, and the address the heartbeat came from (docs/nat.md): the writer stores them on change. */
  localEndpoints?: string[];
  publicHost?: string | null;
  at: string;
}

/** What a heartbeat says of paths across NAT (operations/nat-paths.ts). */
export const heartbeatPathReport = (beat: AdmittedHeartbeat): PathReport => ({
  nodeId: beat.nodeId,
  appliedRevision: beat.appliedRevision,
  peers: pathPeersOf(beat.peers, beat.delta),
  ...(beat.localEndpoints ? { localEndpoints: beat.localEndpoints } : {}),
  publicHost: beat.publicHost ?? null,
});

/** D1 runs a batch as one transaction; this many statements keeps each one short. */
const STATEMENTS_PER_BATCH = 200;

/**
 * Writes the heartbeats a network's writer gathered (GroupCommit), in as few D1 batches as fit. These
 * columns are written only here; the routing writer never touches them, so no ordering is needed.
 */
export async function writeHeartbeats(db: Db, heartbeats: AdmittedHeartbeat[]): Promise<void> {
  const statements = heartbeats.flatMap((beat) => [
    db
      .update(nodes)
      .set({ appliedRoutingRevision: beat.appliedRevision, lastSeenAt: beat.at, ...peerColumns(beat) })
      .where(eq(nodes.id, beat.nodeId)),
    ...(beat.endpoint ? [db.update(devices).set({ reportedEndpoint: beat.endpoint }).where(eq(devices.id, beat.deviceId))] : []),
    ...replaceObservations(db, beat.networkId, beat.nodeId, beat.peers, beat.at),
    ...(beat.delta ? peerDeltaStatements(db, beat.networkId, beat.nodeId, beat.delta, beat.at) : []),
  ]);
  // A heartbeat's statements may straddle two batches: each is idempotent (upserts of absolute values,
  // deletes by key), and a failed batch fails the heartbeat, whose reporter resends.
  for (let start = 0; start < statements.length; start += STATEMENTS_PER_BATCH) {
    const [first, ...rest] = statements.slice(start, start + STATEMENTS_PER_BATCH);
    if (first) await db.batch([first, ...rest]);
  }
}

const peerColumns = (beat: AdmittedHeartbeat) => (beat.delta ? peerReportColumns(beat.delta) : beat.peers ? fullReportColumns : {});

/** Two heartbeats of one node in the same flush: the newer wins, but what it left out keeps the older's. */
export const mergeHeartbeats = (older: AdmittedHeartbeat, newer: AdmittedHeartbeat): AdmittedHeartbeat => ({
  ...newer,
  peers: newer.peers ?? (newer.delta ? undefined : older.peers),
  delta: newer.delta && older.delta ? mergeDeltas(older.delta, newer.delta) : (newer.delta ?? (newer.peers ? undefined : older.delta)),
  endpoint: newer.endpoint ?? older.endpoint,
});
