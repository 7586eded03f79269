import type { JSX } from "hono/jsx/jsx-runtime";
import type { MapChain, MapGateway, MapHop, NetworkMap } from "./network-map-model";
import { Arrow, Box, COLOURS, clip, count, GROUP, GroupTile, Heading, hint, Mark, NodeTile, TILE } from "./network-map-shapes";

// The map's geometry: chains as rows whose hops are columns (a policy's path left to right), gateways in no
// chain below them, then the devices (tiles, or tag groups), then each relayed pair as a line through its relay.

const BOX = { w: 200, gap: 44, head: 30, line: 18 };
const PAD = 10;
const MIN_WIDTH = 900;

type Point = { x: number; y: number };
type Shapes = JSX.Element[];

const hopHeight = (hop: MapHop) => BOX.head + Math.max(1, hop.members.length) * BOX.line + 8;
const chainWidth = (chain: MapChain) => (chain.hops.length + 2) * (BOX.w + BOX.gap) - BOX.gap;
const listed = (items: string[], max = 3) => [...items.slice(0, max), ...(items.length > max ? [`+${items.length - max} more`] : [])];

/** One hop: its title, then each member with its mark; the active one ▶ and bold, standbys dimmed. */
function hopBox(hop: MapHop, x: number, y: number, h: number, anchors: Map<string, Point>): Shapes {
  const shapes: Shapes = [
    <rect x={x} y={y} width={BOX.w} height={h} rx="6" fill={COLOURS.soft} stroke={COLOURS.line} />,
    <text x={x + 10} y={y + 20} font-weight="700" fill={COLOURS.fg}>
      {clip(hop.title, 24)}
    </text>,
  ];
  hop.members.forEach((member, index) => {
    const top = y + BOX.head + index * BOX.line;
    anchors.set(member.id, { x: x + BOX.w / 2, y: top + 9 });
    const word = member.active ? "▶ " : hop.pool ? "standby " : "";
    shapes.push(
      <g opacity={member.active ? "1" : "0.55"} data-member={member.id}>
        <title>{hint(member.name, member.health, `${member.active ? ", active" : ", standby"}${member.relay ? ", relay" : ""}`)}</title>
        {member.match && <rect x={x + 3} y={top} width={BOX.w - 6} height={BOX.line} fill={COLOURS.match} stroke={COLOURS.matchLine} />}
        <Mark tone={member.health.tone} x={x + 14} y={top + 9} />
        <text x={x + 26} y={top + 14} fill={COLOURS.fg} font-weight={member.active ? "700" : "400"}>
          {clip(`${word}${member.name}${member.relay ? " (R)" : ""}`, 23)}
        </text>
      </g>,
    );
  });
  return shapes;
}

function chainRow(chain: MapChain, y: number, anchors: Map<string, Point>): { shapes: Shapes; height: number } {
  const height = Math.max(BOX.head + 3 * BOX.line + 8, ...chain.hops.map(hopHeight));
  const step = BOX.w + BOX.gap;
  const names = listed(chain.policies.map((policy) => policy.name));
  const shapes: Shapes = [
    <Box
      x={0}
      y={y}
      w={BOX.w}
      h={height}
      title={chain.policies.length > 1 ? `${chain.policies.length} policies` : "Policy"}
      lines={names}
    />,
  ];
  chain.hops.forEach((hop, index) => {
    shapes.push(<Arrow x={step * index + BOX.w} y={y + 20} length={BOX.gap} />, ...hopBox(hop, step * (index + 1), y, height, anchors));
  });
  const last = step * (chain.hops.length + 1);
  shapes.push(
    <Arrow x={last - BOX.gap} y={y + 20} length={BOX.gap} />,
    <Box x={last} y={y} w={BOX.w} h={height} title="Destination" lines={listed(chain.policies.map((policy) => policy.destination))} />,
  );
  return { shapes, height };
}

function gatewayBox(gateway: MapGateway, x: number, y: number, anchors: Map<string, Point>) {
  anchors.set(gateway.id, { x: x + BOX.w / 2, y: y + 22 });
  return (
    <g data-gateway={gateway.id}>
      <title>{hint(gateway.name, gateway.health, gateway.relay ? ", relay" : "")}</title>
      {gateway.match && <rect x={x - 3} y={y - 3} width={BOX.w + 6} height={50} rx="8" fill={COLOURS.match} stroke={COLOURS.matchLine} />}
      <Box
        x={x}
        y={y}
        w={BOX.w}
        h={44}
        title={`${gateway.name}${gateway.relay ? " (R)" : ""}`}
        lines={[gateway.health.word]}
        tone={gateway.health.tone}
      />
    </g>
  );
}

/** Lays shapes of one size in rows across the map's width; answers each one's top-left corner. */
function grid(n: number, w: number, h: number, gap: number, width: number, top: number) {
  const perRow = Math.max(1, Math.floor((width + gap) / (w + gap)));
  const at = (index: number) => ({ x: (index % perRow) * (w + gap), y: top + Math.floor(index / perRow) * (h + gap) });
  return { at, height: n === 0 ? 0 : Math.ceil(n / perRow) * (h + gap) };
}

export function layoutMap(map: NetworkMap): { shapes: Shapes; width: number; height: number } {
  const width = Math.max(MIN_WIDTH, ...map.chains.map(chainWidth));
  const anchors = new Map<string, Point>();
  const shapes: Shapes = [];
  let y = 20;
  const section = (title: string) => {
    shapes.push(
      <Heading x={0} y={y}>
        {title}
      </Heading>,
    );
    y += 12;
  };
  if (map.chains.length > 0) {
    section(`Chains: each policy's path, left to right${map.moreChains ? ` (${map.moreChains} more not drawn)` : ""}`);
    for (const chain of map.chains) {
      const row = chainRow(chain, y, anchors);
      shapes.push(...row.shapes);
      y += row.height + 14;
    }
    y += 14;
  }
  if (map.gateways.length > 0) {
    section(`Gateways in no chain${map.moreGateways ? ` (${map.moreGateways} more not drawn)` : ""}`);
    const boxes = grid(map.gateways.length, BOX.w, 44, 12, width, y);
    map.gateways.forEach((gateway, index) => {
      const at = boxes.at(index);
      shapes.push(gatewayBox(gateway, at.x, at.y, anchors));
    });
    y += boxes.height + 14;
  }
  const devices = map.devices;
  section(`Devices: ${count(map.counts.devices)} (${count(map.counts.online)} online)${devices.mode === "groups" ? ", by tag" : ""}`);
  if (devices.mode === "tiles") {
    const tiles = grid(devices.tiles.length, TILE.w, TILE.h, TILE.gap, width, y);
    devices.tiles.forEach((node, index) => {
      const at = tiles.at(index);
      anchors.set(node.id, { x: at.x + TILE.w / 2, y: at.y + TILE.h / 2 });
      shapes.push(<NodeTile node={node} x={at.x} y={at.y} />);
    });
    y += tiles.height;
  } else {
    const extra = devices.other ? 1 : 0;
    const tiles = grid(devices.groups.length + extra, GROUP.w, GROUP.h, GROUP.gap, width, y);
    devices.groups.forEach((group, index) => {
      const at = tiles.at(index);
      anchors.set(`group:${group.key}`, { x: at.x + GROUP.w / 2, y: at.y + GROUP.h / 2 });
      shapes.push(<GroupTile group={group} x={at.x} y={at.y} open={group.key === devices.open?.key} />);
    });
    if (devices.other) {
      const at = tiles.at(devices.groups.length);
      const lines = [`${count(devices.other.nodes)} devices`];
      shapes.push(<Box x={at.x} y={at.y} w={GROUP.w} h={GROUP.h} title={`${devices.other.groups} other tags`} lines={lines} />);
    }
    y += tiles.height + 6;
    if (devices.open) {
      const more = devices.open.more ? `; ${count(devices.open.more)} more not drawn (search to narrow)` : "";
      section(`Open: ${devices.open.key}, matches first${more}`);
      const open = grid(devices.open.tiles.length, TILE.w, TILE.h, TILE.gap, width, y);
      devices.open.tiles.forEach((node, index) => {
        const at = open.at(index);
        anchors.set(node.id, { x: at.x + TILE.w / 2, y: at.y + TILE.h / 2 });
        shapes.push(<NodeTile node={node} x={at.x} y={at.y} />);
      });
      y += open.height;
    }
  }
  shapes.push(...pairLines(map, anchors));
  return { shapes, width, height: y + PAD };
}

/** A relayed pair: a dashed line from one device through its relay to the other (grouped: their groups' tiles). */
function pairLines(map: NetworkMap, anchors: Map<string, Point>): Shapes {
  if (!map.pairs) return [];
  const groupOf = map.pairGroups;
  const drawn = new Set<string>();
  const lines: Shapes = [];
  for (const pair of map.pairs.list) {
    const [a, relay, b] = [pair.a.nodeId, pair.relay.nodeId, pair.b.nodeId].map(
      (id) => anchors.get(id) ?? anchors.get(`group:${groupOf.get(id)}`),
    );
    if (!a || !relay || !b) continue;
    const points = `${a.x},${a.y} ${relay.x},${relay.y} ${b.x},${b.y}`;
    if (drawn.has(points)) continue;
    drawn.add(points);
    lines.push(
      <polyline
        data-pair={`${pair.a.name} ${pair.relay.name} ${pair.b.name}`}
        points={points}
        fill="none"
        stroke={COLOURS.relay}
        stroke-width="2"
        stroke-dasharray="6 4"
        opacity="0.8"
      />,
    );
  }
  return lines;
}
