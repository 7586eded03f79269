// What a scrape costs in D1 (docs/metrics.md, "Cost"): the statements are a fixed batch, whatever the
// fleet; the rows they read grow with it. The figures come from the scrape itself
// (wgo_metrics_scrape_d1_*, counted by the metered D1 binding), printed for the docs.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { networkSetup } from "../helpers/factories";
import { scrape, sampleValue } from "./support";

const NODES = 1000;

/**
 * NODES nodes straight into D1 (the API's path is measured elsewhere): half seen a minute ago, each with
 * its presence row and one reported tunnel end.
 */
async function seedNodes(networkId: string) {
  const now = new Date().toISOString();
  const seen = new Date(Date.now() - 60_000).toISOString();
  await env.DB.batch([
    env.DB.prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
       INSERT INTO nodes (id, network_id, name, public_key, address, revision, applied_routing_revision, last_seen_at, created_at, updated_at)
       SELECT 'node_cost_' || ?2 || '_' || i, ?2, 'n' || i, '', '10.250.' || (i / 250) || '.' || (i % 250), 0, 0,
              CASE WHEN i % 2 = 0 THEN ?3 ELSE NULL END, ?4, ?4 FROM seq`,
    ).bind(NODES, networkId, seen, now),
    env.DB.prepare(
      `INSERT INTO tunnel_observations (id, network_id, from_node_id, peer_public_key, last_handshake_at, rx_bytes, tx_bytes, reported_at, created_at)
       SELECT 'tun_' || id, network_id, id, 'peer', ?2, 0, 0, ?3, ?3 FROM nodes WHERE network_id = ?1`,
    ).bind(networkId, seen, now),
    // The presence detector keeps a row per node it has judged: the scrape joins it.
    env.DB.prepare(
      `INSERT INTO node_presence (node_id, state, changed_at, updated_at)
       SELECT id, CASE WHEN last_seen_at IS NULL THEN 'offline' ELSE 'online' END, ?2, ?2 FROM nodes WHERE network_id = ?1`,
    ).bind(networkId, now),
  ]);
}

describe("the cost of a scrape", () => {
  it(`runs the same D1 statements for an empty network and for one of ${NODES} nodes; rows read grow with the fleet`, async () => {
    const { admin, network } = await networkSetup();
    const small = await scrape(admin.token);
    await seedNodes(network.id);
    const large = await scrape(admin.token);

    expect(sampleValue(large, "wgo_network_nodes", { network_id: network.id })).toBe(NODES);
    expect(sampleValue(large, "wgo_network_tunnel_ends", { network_id: network.id })).toBe(NODES);
    const statements = sampleValue(large, "wgo_metrics_scrape_d1_statements")!;
    expect(statements).toBe(sampleValue(small, "wgo_metrics_scrape_d1_statements"));
    expect(statements).toBe(11);
    const rowsRead = [sampleValue(small, "wgo_metrics_scrape_d1_rows_read")!, sampleValue(large, "wgo_metrics_scrape_d1_rows_read")!];
    // The new nodes and tunnel ends are read (about once each), never once per network or per node.
    expect(rowsRead[1]! - rowsRead[0]!).toBeGreaterThanOrEqual(NODES);
    expect(rowsRead[1]! - rowsRead[0]!).toBeLessThan(6 * NODES);
    expect(sampleValue(large, "wgo_network_nodes_online", { network_id: network.id })).toBe(NODES / 2);
    console.info(
      JSON.stringify({ nodes: NODES, statements, rowsReadBefore: rowsRead[0], rowsReadAfter: rowsRead[1], bytes: large.text.length }),
    );
  });
});
