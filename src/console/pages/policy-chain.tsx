import { AWAITING_AGENT, type ChainBox, type ChainMember, describeBox } from "./chain-model";

/**
 * A policy's chain as a picture (inline SVG: presentation attributes only, so the console's CSP needs no
 * inline styles) and, right below it, the same chain as an ordered list a screen reader reads in order:
 * "source, then gw1 (healthy, active), then pool edge: …, then destination …".
 */
const BOX_WIDTH = 190;
const GAP = 46;
const LINE = 18;
const TOP = 8;
const COLOURS = { ok: "#1a7f37", bad: "#a4161a", muted: "#4a5360", line: "#6e7781", fg: "#1b1f24", soft: "#f4f6f8" };

/** Not colour alone: each member line says its state in a word too. */
const memberWord = (member: ChainMember) => {
  if (member.health === AWAITING_AGENT) return member.active ? "▶ awaiting agent" : "awaiting agent";
  return member.active ? "▶ active" : member.healthy ? "standby" : member.health === "drained" ? "drained" : "✕ unhealthy";
};

/** Green healthy, grey drained or awaiting its agent (a next step, not a fault), red unhealthy. */
const colourOf = (member: ChainMember) =>
  member.healthy ? COLOURS.ok : member.health === "drained" || member.health === AWAITING_AGENT ? COLOURS.muted : COLOURS.bad;

const boxHeight = (box: ChainBox) => 48 + box.members.length * LINE;
const clip = (text: string, max = 24) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function Box({ box, x, height }: { box: ChainBox; x: number; height: number }) {
  const subtitle = box.kind === "hop" ? box.role : box.kind === "source" ? "nodes using the policy" : "destination";
  return (
    <g>
      <rect x={x} y={TOP} width={BOX_WIDTH} height={height} rx="6" fill={COLOURS.soft} stroke={COLOURS.line} />
      <text x={x + 10} y={TOP + 20} font-weight="700" fill={COLOURS.fg}>
        {clip(box.title)}
      </text>
      <text x={x + 10} y={TOP + 38} fill={COLOURS.muted}>
        {subtitle}
      </text>
      {box.members.map((member, index) => {
        const y = TOP + 58 + index * LINE;
        const colour = colourOf(member);
        return (
          <g>
            <circle cx={x + 15} cy={y - 4} r="5" fill={colour} />
            <text x={x + 26} y={y} fill={COLOURS.fg} font-weight={member.active ? "700" : "400"}>
              {clip(box.title.startsWith("pool ") ? `${member.name} ${memberWord(member)}` : memberWord(member), 24)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

function Arrow({ x, y }: { x: number; y: number }) {
  return (
    <g>
      <line x1={x + 4} y1={y} x2={x + GAP - 10} y2={y} stroke={COLOURS.fg} stroke-width="2" />
      <polygon points={`${x + GAP - 4},${y} ${x + GAP - 12},${y - 5} ${x + GAP - 12},${y + 5}`} fill={COLOURS.fg} />
    </g>
  );
}

export function PolicyChain({ id, name, boxes }: { id: string; name: string; boxes: ChainBox[] }) {
  const height = Math.max(...boxes.map(boxHeight)) + TOP * 2;
  const width = boxes.length * BOX_WIDTH + (boxes.length - 1) * GAP;
  const captionId = `chain-${id}`;
  const summary = boxes.map((box) => (box.kind === "hop" ? box.title : box.kind === "source" ? "source" : box.title)).join(" → ");
  return (
    <figure>
      {/* Drawn at its own size: on a narrow screen the picture scrolls sideways in its box (keyboard too) instead of shrinking. */}
      {/* biome-ignore lint/a11y/useSemanticElements: a picture's scroll box, not a set of form controls (fieldset) */}
      <div class="chain-scroll" tabindex={0} role="group" aria-label={`Chain picture of ${name}`}>
        <svg
          role="img"
          aria-labelledby={captionId}
          viewBox={`0 0 ${width} ${height}`}
          width={width}
          height={height}
          font-family="system-ui, sans-serif"
          font-size="13"
        >
          <title>{`Chain of ${name}: ${summary}`}</title>
          {boxes.map((box, index) => {
            const x = index * (BOX_WIDTH + GAP);
            return (
              <>
                <Box box={box} x={x} height={height - TOP * 2} />
                {index < boxes.length - 1 && <Arrow x={x + BOX_WIDTH} y={TOP + 24} />}
              </>
            );
          })}
        </svg>
      </div>
      <figcaption id={captionId}>
        Chain of {name}: {summary}
      </figcaption>
      <Legend />
      {/* The picture's words, for screen readers: the figure already shows the chain to everyone else. */}
      <ol class="visually-hidden" aria-label={`Hops of ${name}, in order`}>
        {boxes.map((box, index) => (
          <li>{`${index === 0 ? "" : "then "}${describeBox(box)}`}</li>
        ))}
      </ol>
    </figure>
  );
}

/** What the dots and the ▶ mean (the picture is otherwise read by colour and position). */
function Legend() {
  const dot = (colour: string) => (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
      <circle cx="6" cy="6" r="5" fill={colour} />
    </svg>
  );
  return (
    <p class="legend" aria-hidden="true">
      <span>{dot(COLOURS.ok)} healthy</span>
      <span>{dot(COLOURS.muted)} drained or awaiting agent</span>
      <span>{dot(COLOURS.bad)} unhealthy</span>
      <span>▶ carries the traffic</span>
    </p>
  );
}
