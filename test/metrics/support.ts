import { env } from "cloudflare:workers";
import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";
import { expect } from "vitest";
import { call } from "../helpers/api";

export interface Scrape {
  text: string;
  families: ParsedFamily[];
}

/** GET /metrics with `token`, expected to answer 200 in the Prometheus text format, parsed by a real parser. */
export async function scrape(token: string): Promise<Scrape> {
  const response = await call("GET", "/metrics", { token });
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return { text: response.text, families: parsePrometheusTextFormat(response.text) };
}

const matches = (labels: Record<string, string> | undefined, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([name, value]) => labels?.[name] === value);

export function family(scraped: Scrape, name: string) {
  const found = scraped.families.find((candidate) => candidate.name === name);
  expect(found, `family ${name}`).toBeDefined();
  return found!;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(scraped: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  const samples = family(scraped, name).metrics.filter((sample) => matches(sample.labels, labels));
  expect(samples.length, `${name} ${JSON.stringify(labels)}: more than one sample`).toBeLessThanOrEqual(1);
  return samples[0] === undefined ? undefined : Number(samples[0].value);
}

/**
 * One labelled histogram: {le → count}, sum and count. parse-prometheus-text-format 1.1.1 folds every
 * series of a histogram family into one (it keeps _sum/_count only without labels), so the same text is
 * parsed again with the histogram's TYPE dropped: its _bucket, _sum and _count lines are then plain samples.
 */
export function histogramOf(scraped: Scrape, name: string, labels: Record<string, string>) {
  expect(family(scraped, name).type).toBe("HISTOGRAM");
  const untyped = parsePrometheusTextFormat(scraped.text.replace(`# TYPE ${name} histogram\n`, ""));
  // Untyped, each run of one series' lines is a family of its own: a second network's buckets follow the first's
  // _count, so a name has as many families as the text has networks with that histogram.
  const samples = (suffix: string) =>
    untyped
      .filter((candidate) => candidate.name === `${name}${suffix}`)
      .flatMap((candidate) => candidate.metrics)
      .filter((sample) => matches(sample.labels, labels));
  const buckets = Object.fromEntries(samples("_bucket").map((sample) => [sample.labels!.le!, Number(sample.value)]));
  const [sum] = samples("_sum");
  const [count] = samples("_count");
  return { buckets, sum: Number(sum?.value), count: Number(count?.value) };
}

const iso = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();

/** Time-dependent state is written straight into D1 (a heartbeat hours ago), as test/notifications does. */
export async function setLastSeen(nodeId: string, secondsAgo: number) {
  await env.DB.prepare("UPDATE nodes SET last_seen_at = ? WHERE id = ?").bind(iso(secondsAgo), nodeId).run();
}

export const secondsAgo = iso;
