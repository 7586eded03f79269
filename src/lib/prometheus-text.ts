/**
 * The Prometheus text exposition format, version 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format): HELP and TYPE lines,
 * then one line a sample. Pure: the metrics service decides what to say, this only says it correctly.
 */

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  labels?: Labels;
  value: number;
}

/** Cumulative counts: `buckets[i].count` samples were <= `buckets[i].le`. The +Inf bucket is added from `count`. */
export interface HistogramSample {
  labels?: Labels;
  buckets: readonly { le: number; count: number }[];
  sum: number;
  count: number;
}

export type MetricFamily =
  | { name: string; help: string; type: "gauge" | "counter"; samples: readonly Sample[] }
  | { name: string; help: string; type: "histogram"; samples: readonly HistogramSample[] };

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Label values escape backslash, double quote and line feed; nothing else needs it. */
export const escapeLabelValue = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

/** HELP text escapes backslash and line feed (a quote is literal there). */
const escapeHelp = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

function labelText(labels: Labels | undefined, extra?: [string, string]): string {
  const pairs = Object.entries(labels ?? {});
  if (extra) pairs.push(extra);
  if (pairs.length === 0) return "";
  for (const [name] of pairs) {
    // "__" names are reserved for Prometheus itself.
    if (!LABEL_NAME.test(name) || name.startsWith("__")) throw new Error(`Not a Prometheus label name: ${name}`);
  }
  return `{${pairs.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}`;
}

function histogramLines(name: string, sample: HistogramSample): string[] {
  if (sample.labels && "le" in sample.labels) throw new Error(`${name}: "le" is the bucket label`);
  const lines = sample.buckets.map(
    (bucket) => `${name}_bucket${labelText(sample.labels, ["le", formatValue(bucket.le)])} ${formatValue(bucket.count)}`,
  );
  lines.push(`${name}_bucket${labelText(sample.labels, ["le", "+Inf"])} ${formatValue(sample.count)}`);
  lines.push(`${name}_sum${labelText(sample.labels)} ${formatValue(sample.sum)}`);
  lines.push(`${name}_count${labelText(sample.labels)} ${formatValue(sample.count)}`);
  return lines;
}

/** The exposition of these families, in the order given; a family without samples keeps its HELP and TYPE. */
export function renderFamilies(families: readonly MetricFamily[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const family of families) {
    if (!METRIC_NAME.test(family.name)) throw new Error(`Not a Prometheus metric name: ${family.name}`);
    // A name twice would split one family in two, which parsers reject.
    if (seen.has(family.name)) throw new Error(`Metric family ${family.name} twice`);
    seen.add(family.name);
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    if (family.type === "histogram") {
      for (const sample of family.samples) lines.push(...histogramLines(family.name, sample));
    } else {
      for (const sample of family.samples) lines.push(`${family.name}${labelText(sample.labels)} ${formatValue(sample.value)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
