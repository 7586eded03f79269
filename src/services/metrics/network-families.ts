import type { HistogramSample, MetricFamily, Sample } from "../../lib/prometheus-text";
import { bucketsOf, type Fleet, HANDSHAKE_AGE_BUCKETS, HEARTBEAT_AGE_BUCKETS } from "./fleet-queries";
import type { WriterDepth } from "./writer-depth";

/**
 * Per-network series carry only `network_id` (stable: a rename does not start new series); the name and
 * group are on wgo_network_info, joined in PromQL when wanted (docs/metrics.md).
 */
const byNetwork = (networkId: string) => ({ network_id: networkId });

const gauge = (name: string, help: string, samples: Sample[]): MetricFamily => ({ name, help, type: "gauge", samples });

function ageHistogram(networkId: string, row: Record<string, unknown>, buckets: readonly number[]): HistogramSample {
  return { labels: byNetwork(networkId), buckets: bucketsOf(row, buckets), sum: Number(row.ageSum ?? 0), count: Number(row.aged ?? 0) };
}

/** Networks, their nodes and devices, revisions, heartbeat and handshake ages, and the sampled writer queues. */
export function networkFamilies(fleet: Fleet, writers: readonly WriterDepth[]): MetricFamily[] {
  const networks = fleet.networkRows;
  const perNetwork = (value: (row: (typeof networks)[number]) => number) =>
    networks.map((row) => ({ labels: byNetwork(row.id), value: value(row) }));
  const devices = new Map(fleet.deviceRows.map((row) => [row.networkId, row.devices]));
  const tunnels = fleet.tunnelRows;
  return [
    gauge(
      "wgo_network_info",
      "One series per network, always 1: its name and group, to join onto the per-network series by network_id.",
      networks.map((row) => ({ labels: { network_id: row.id, network_name: row.name, group_id: row.groupId }, value: 1 })),
    ),
    gauge(
      "wgo_network_nodes",
      "Nodes in the network (devices and gateway nodes included).",
      perNetwork((row) => row.nodes),
    ),
    gauge(
      "wgo_network_gateway_nodes",
      "Nodes with the gateway role in the network.",
      perNetwork((row) => row.gatewayNodes),
    ),
    gauge(
      "wgo_network_devices",
      "Managed-client devices enrolled in the network.",
      perNetwork((row) => devices.get(row.id) ?? 0),
    ),
    gauge(
      "wgo_network_nodes_online",
      "Nodes the presence detectors last judged online (the network's object for device nodes, the minute cron for the others).",
      perNetwork((row) => row.online),
    ),
    gauge(
      "wgo_network_routing_revision",
      "The network's desired routing revision (bumped by every routing-relevant write).",
      perNetwork((row) => row.routingRevision),
    ),
    gauge(
      "wgo_network_nodes_behind_revision",
      "Nodes that reported applying a routing revision older than the desired one (runtime status: lagging).",
      perNetwork((row) => row.behind),
    ),
    gauge(
      "wgo_network_nodes_unreported",
      "Nodes that never reported an applied routing revision.",
      perNetwork((row) => row.unreported),
    ),
    {
      name: "wgo_node_heartbeat_age_seconds",
      help: "Seconds since each node's last heartbeat or report, as a histogram per network at scrape time (nodes never seen are left out).",
      type: "histogram",
      samples: networks.map((row) => ageHistogram(row.id, row, HEARTBEAT_AGE_BUCKETS)),
    },
    gauge(
      "wgo_network_tunnel_ends",
      "Tunnel ends the network's nodes report (one per node and peer, from their last heartbeat).",
      tunnels.map((row) => ({ labels: byNetwork(row.networkId), value: row.ends })),
    ),
    {
      name: "wgo_tunnel_handshake_age_seconds",
      help: "Seconds since the last WireGuard handshake of each reported tunnel end, as a histogram per network at scrape time (ends without a handshake are left out).",
      type: "histogram",
      samples: tunnels.map((row) => ageHistogram(row.networkId, row, HANDSHAKE_AGE_BUCKETS)),
    },
    gauge(
      "wgo_network_peer_paths",
      "Pairs of nodes by path (docs/nat.md): direct (a handshake in the last 180 s, reported by either end) or relay (moved onto a relay by the server).",
      (["direct", "relay"] as const).flatMap((path) =>
        fleet.peerPaths[path].map((row) => ({ labels: { ...byNetwork(row.networkId), path }, value: row.pairs })),
      ),
    ),
    gauge(
      "wgo_writer_queue_depth",
      "Commands queued or running in the network's writer, for the networks written in the last 5 minutes (at most 25).",
      writers.map((writer) => ({ labels: byNetwork(writer.networkId), value: writer.queueDepth })),
    ),
  ];
}
