// A network object's presence check (objects/network/clocks/presence-clock.ts) driven by tests. Time-dependent
// state is written straight into the object's own SQLite (a beat an hour ago, a drift clock started long ago),
// as older tests wrote D1's heartbeat columns when the cron judged from them.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { networkWriter } from "../../src/objects/network/client";

export const writerOf = (networkId: string) => networkWriter(env, networkId);

/** The object's presence check now, or at `now` (ms): what its alarm runs about once a minute. */
export async function checkPresence(networkId: string, now?: number) {
  const result = await writerOf(networkId).checkPresence(networkId, now);
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return (result as { ok: true; value: { transitions: number; events: number; statsWritten: boolean; nextCheckAt: number | null } }).value;
}

const iso = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();

/** The device node's last beat `secondsAgo` (and its applied revision when given), as the object holds it. */
export async function setDeviceSeen(networkId: string, nodeId: string, secondsAgo: number, appliedRevision?: number) {
  await runInDurableObject(writerOf(networkId), (_writer, state) => {
    state.storage.sql.exec(
      `INSERT INTO node_hot (node_id, last_seen_at, applied_revision) VALUES (?1, ?2, ?3)
       ON CONFLICT (node_id) DO UPDATE SET last_seen_at = ?2, applied_revision = coalesce(?3, applied_revision)`,
      nodeId,
      iso(secondsAgo),
      appliedRevision ?? null,
    );
  });
}

/** The object's drift clock of the device node started `secondsAgo`. */
export async function startDeviceDriftClock(networkId: string, nodeId: string, secondsAgo: number) {
  await runInDurableObject(writerOf(networkId), (_writer, state) => {
    state.storage.sql.exec("UPDATE node_presence SET behind_since = ? WHERE node_id = ?", iso(secondsAgo), nodeId);
  });
}

/** The presence row the object keeps of a node, or null. */
export async function objectPresence(networkId: string, nodeId: string) {
  return runInDurableObject(writerOf(networkId), (_writer, state) => {
    const row = state.storage.sql
      .exec("SELECT state, behind_since AS behindSince FROM node_presence WHERE node_id = ?", nodeId)
      .toArray()[0];
    return (row ?? null) as { state: string; behindSince: string | null } | null;
  });
}

/** Rows the network object's hot state holds of a node: its tunnel rows and its own row (0 once it left). */
export async function hotRowsOf(networkId: string, nodeId: string): Promise<number> {
  return runInDurableObject(writerOf(networkId), (_writer, state) => {
    const count = (table: string, column: string) =>
      (state.storage.sql.exec(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`, nodeId).one() as { n: number }).n;
    return count("tunnels", "from_node_id") + count("node_hot", "node_id");
  });
}
