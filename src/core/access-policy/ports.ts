/**
 * Port specs of access rules ("*", "icmp", "tcp", "tcp:443", "udp:5000-5100") as sets that can be
 * joined and subtracted exactly. A deny carved out of a broad allow is a subtraction, so the inbound
 * filter a node receives lists only what is allowed: no rule order for a reader (or nftables) to get wrong.
 */

export type PortProtocol = "tcp" | "udp";
/** Inclusive, sorted, non-overlapping, non-adjacent. */
export type PortRanges = readonly (readonly [number, number])[];

export interface PortSet {
  icmp: boolean;
  tcp: PortRanges;
  udp: PortRanges;
  /** Protocols other than TCP, UDP and ICMP (GRE, ESP, ...): only "*" reaches them. */
  other: boolean;
}

/** One packet's kind, as a test or an access check names it: "tcp:22", "udp:53", "icmp". */
export type Flow = { protocol: "icmp" } | { protocol: PortProtocol; port: number };

const ALL_PORTS: PortRanges = [[1, 65535]];
export const NO_PORTS: PortSet = { icmp: false, tcp: [], udp: [], other: false };
export const ALL_TRAFFIC: PortSet = { icmp: true, tcp: ALL_PORTS, udp: ALL_PORTS, other: true };

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const PORT_SPEC = /^(tcp|udp):(\d{1,5})(?:-(\d{1,5}))?$/;

export function parsePortSpec(text: string): Parsed<PortSet> {
  if (text === "*") return { ok: true, value: ALL_TRAFFIC };
  if (text === "icmp") return { ok: true, value: { ...NO_PORTS, icmp: true } };
  if (text === "tcp" || text === "udp" || text === "tcp:*" || text === "udp:*") {
    return { ok: true, value: { ...NO_PORTS, [text.slice(0, 3)]: ALL_PORTS } };
  }
  const match = PORT_SPEC.exec(text);
  if (!match) return { ok: false, reason: 'Expected "*", "icmp", "tcp", "udp", "tcp:443" or "udp:5000-5100"' };
  const low = Number(match[2]);
  const high = match[3] === undefined ? low : Number(match[3]);
  if (low < 1 || high > 65535) return { ok: false, reason: "Ports run from 1 to 65535" };
  if (high < low) return { ok: false, reason: "A range runs from the lower port to the higher" };
  return { ok: true, value: { ...NO_PORTS, [match[1] as PortProtocol]: [[low, high]] } };
}

export function parseFlow(text: string): Parsed<Flow> {
  if (text === "icmp") return { ok: true, value: { protocol: "icmp" } };
  const match = PORT_SPEC.exec(text);
  if (!match || match[3] !== undefined) return { ok: false, reason: 'Expected one flow: "icmp", "tcp:22" or "udp:53"' };
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return { ok: false, reason: "Ports run from 1 to 65535" };
  return { ok: true, value: { protocol: match[1] as PortProtocol, port } };
}

function joinRanges(a: PortRanges, b: PortRanges): PortRanges {
  const sorted = [...a, ...b].sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = out[out.length - 1];
    if (last && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else out.push([low, high]);
  }
  return out;
}

function subtractRanges(from: PortRanges, take: PortRanges): PortRanges {
  let rest: [number, number][] = from.map(([low, high]) => [low, high]);
  for (const [cutLow, cutHigh] of take) {
    rest = rest.flatMap(([low, high]): [number, number][] => {
      if (cutHigh < low || cutLow > high) return [[low, high]];
      const pieces: [number, number][] = [];
      if (low < cutLow) pieces.push([low, cutLow - 1]);
      if (high > cutHigh) pieces.push([cutHigh + 1, high]);
      return pieces;
    });
  }
  return rest;
}

export const joinPorts = (a: PortSet, b: PortSet): PortSet => ({
  icmp: a.icmp || b.icmp,
  tcp: joinRanges(a.tcp, b.tcp),
  udp: joinRanges(a.udp, b.udp),
  other: a.other || b.other,
});

export const subtractPorts = (a: PortSet, b: PortSet): PortSet => ({
  icmp: a.icmp && !b.icmp,
  tcp: subtractRanges(a.tcp, b.tcp),
  udp: subtractRanges(a.udp, b.udp),
  other: a.other && !b.other,
});

export const isNoTraffic = (set: PortSet) => !set.icmp && !set.other && set.tcp.length === 0 && set.udp.length === 0;

export function carriesFlow(set: PortSet, flow: Flow): boolean {
  if (flow.protocol === "icmp") return set.icmp;
  return set[flow.protocol].some(([low, high]) => flow.port >= low && flow.port <= high);
}

const isAll = (ranges: PortRanges) => ranges.length === 1 && ranges[0]![0] === 1 && ranges[0]![1] === 65535;

/** The canonical spec list of a set: what configs carry, and equal sets print equal. */
export function formatPorts(set: PortSet): string[] {
  if (set.other && set.icmp && isAll(set.tcp) && isAll(set.udp)) return ["*"];
  const specs: string[] = [];
  if (set.icmp) specs.push("icmp");
  for (const protocol of ["tcp", "udp"] as const) {
    if (isAll(set[protocol])) specs.push(protocol);
    else for (const [low, high] of set[protocol]) specs.push(low === high ? `${protocol}:${low}` : `${protocol}:${low}-${high}`);
  }
  // "other" alone (a "*" with icmp, tcp or udp carved out) has no spec of its own: such a filter allows it as "other".
  if (set.other) specs.push("other");
  return specs;
}

export const portsKey = (set: PortSet) => formatPorts(set).join(",");
