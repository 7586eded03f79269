import type { Health, Tone } from "./network-map-health";
import type { MapGroup, MapNode } from "./network-map-model";

// The network map's small shapes. Presentation attributes only (the console's CSP allows no inline style),
// and no state by colour alone: each tone has its own mark (filled dot, diamond, ring), explained in the legend.

export const COLOURS = {
  ok: "#1a7f37",
  bad: "#a4161a",
  muted: "#4a5360",
  line: "#6e7781",
  fg: "#1b1f24",
  soft: "#f4f6f8",
  match: "#fff3bf",
  matchLine: "#9a6700",
  relay: "#bc4c00",
} as const;

export const TILE = { w: 160, h: 26, gap: 8 };
export const GROUP = { w: 210, h: 52, gap: 10 };

export const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
export const count = (n: number) => n.toLocaleString("en-US");

/** A health mark centred on (x, y): green dot, red diamond, grey ring. */
export function Mark({ tone, x, y }: { tone: Tone; x: number; y: number }) {
  if (tone === "ok") return <circle cx={x} cy={y} r="5" fill={COLOURS.ok} />;
  if (tone === "bad") return <polygon points={`${x},${y - 6} ${x + 6},${y} ${x},${y + 6} ${x - 6},${y}`} fill={COLOURS.bad} />;
  return <circle cx={x} cy={y} r="4" fill="none" stroke={COLOURS.muted} stroke-width="2" />;
}

/** What a shape says on hover: its name and health (the page's lists say it to screen readers). */
export const hint = (name: string, health: Health, extra = "") => `${name}: ${health.word}${extra}`;

/** One device: its name and a health mark; a search match is filled and outlined. */
export function NodeTile({ node, x, y }: { node: MapNode; x: number; y: number }) {
  return (
    <g data-tile={node.id}>
      <title>{hint(node.name, node.health, node.match ? " (matches the search)" : "")}</title>
      <rect
        x={x}
        y={y}
        width={TILE.w}
        height={TILE.h}
        rx="4"
        fill={node.match ? COLOURS.match : "#fff"}
        stroke={node.match ? COLOURS.matchLine : COLOURS.line}
        stroke-width={node.match ? "3" : "1"}
      />
      <Mark tone={node.health.tone} x={x + 12} y={y + TILE.h / 2} />
      <text x={x + 24} y={y + 17} fill={COLOURS.fg} font-weight={node.match ? "700" : "400"}>
        {clip(node.name, 19)}
      </text>
    </g>
  );
}

/** Devices sharing a tag, as one tile: "tag:web", "1,200 (1,180 online)", and the search's matches in it. */
export function GroupTile({ group, x, y, open }: { group: MapGroup; x: number; y: number; open: boolean }) {
  const hit = group.matches > 0;
  return (
    <g data-group={group.key}>
      <title>{`${group.key}: ${count(group.count)} devices, ${count(group.online)} online${hit ? `, ${count(group.matches)} matching` : ""}`}</title>
      <rect
        x={x}
        y={y}
        width={GROUP.w}
        height={GROUP.h}
        rx="6"
        fill={hit ? COLOURS.match : COLOURS.soft}
        stroke={hit ? COLOURS.matchLine : COLOURS.line}
        stroke-width={open || hit ? "3" : "1"}
      />
      <text x={x + 10} y={y + 16} font-weight="700" fill={COLOURS.fg}>
        {clip(`${group.key}${open ? " (open)" : ""}`, 26)}
      </text>
      <text x={x + 10} y={y + 32} fill={COLOURS.fg}>
        {`${count(group.count)} (${count(group.online)} online)`}
      </text>
      {hit && (
        <text x={x + 10} y={y + 46} font-size="11" fill={COLOURS.matchLine}>
          {`${count(group.matches)} matching`}
        </text>
      )}
    </g>
  );
}

/** A box with a bold title and a grey subtitle (a chain's policies or destinations, a gateway). */
export function Box({
  x,
  y,
  w,
  h,
  title,
  lines,
  tone,
}: {
  x: number;
  y: number;
  w: number;
  h: number;
  title: string;
  lines: string[];
  tone?: Tone;
}) {
  return (
    <g>
      <rect x={x} y={y} width={w} height={h} rx="6" fill={COLOURS.soft} stroke={COLOURS.line} />
      {tone && <Mark tone={tone} x={x + 12} y={y + 15} />}
      <text x={x + (tone ? 24 : 10)} y={y + 20} font-weight="700" fill={COLOURS.fg}>
        {clip(title, tone ? 21 : 23)}
      </text>
      {lines.map((line, index) => (
        <text x={x + 10} y={y + 38 + index * 18} fill={COLOURS.muted}>
          {clip(line, 25)}
        </text>
      ))}
    </g>
  );
}

export function Arrow({ x, y, length }: { x: number; y: number; length: number }) {
  return (
    <g>
      <line x1={x + 3} y1={y} x2={x + length - 9} y2={y} stroke={COLOURS.fg} stroke-width="2" />
      <polygon points={`${x + length - 3},${y} ${x + length - 11},${y - 5} ${x + length - 11},${y + 5}`} fill={COLOURS.fg} />
    </g>
  );
}

export function Heading({ x, y, children }: { x: number; y: number; children: string }) {
  return (
    <text x={x} y={y} font-weight="700" font-size="14" fill={COLOURS.fg}>
      {children}
    </text>
  );
}
