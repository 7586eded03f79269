import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { escapeLabelValue, formatValue, type MetricFamily, renderFamilies } from "../../src/lib/prometheus-text";

describe("the Prometheus text renderer (src/lib/prometheus-text.ts)", () => {
  it("writes HELP and TYPE before the samples, one line each, ending in a newline", () => {
    const text = renderFamilies([
      { name: "wgo_things", help: "Things.", type: "gauge", samples: [{ value: 3 }, { labels: { kind: "a" }, value: 1.5 }] },
      { name: "wgo_events_total", help: "Events.", type: "counter", samples: [{ labels: { kind: "b", zone: "x" }, value: 7 }] },
    ]);
    expect(text).toBe(
      [
        "# HELP wgo_things Things.",
        "# TYPE wgo_things gauge",
        "wgo_things 3",
        'wgo_things{kind="a"} 1.5',
        "# HELP wgo_events_total Events.",
        "# TYPE wgo_events_total counter",
        'wgo_events_total{kind="b",zone="x"} 7',
        "",
      ].join("\n"),
    );
  });

  it("escapes backslash, double quote and newline in label values, and a real parser reads them back", () => {
    const hostile = 'net "prod"\\west\nsecond line';
    expect(escapeLabelValue(hostile)).toBe('net \\"prod\\"\\\\west\\nsecond line');
    const text = renderFamilies([
      {
        name: "wgo_info",
        help: 'Help with a \\ and\na newline and "quotes".',
        type: "gauge",
        samples: [{ labels: { name: hostile }, value: 1 }],
      },
    ]);
    expect(text.split("\n")).toEqual([
      expect.stringMatching(/^# HELP /),
      "# TYPE wgo_info gauge",
      expect.stringMatching(/^wgo_info\{/),
      "",
    ]);
    const [family] = parsePrometheusTextFormat(text);
    expect(family!.metrics[0]!.labels).toEqual({ name: hostile });
    expect(family!.help).toBe('Help with a \\ and\na newline and "quotes".');
  });

  it("histograms: cumulative buckets, a +Inf bucket equal to the count, _sum and _count", () => {
    const family: MetricFamily = {
      name: "wgo_age_seconds",
      help: "Ages.",
      type: "histogram",
      samples: [
        {
          labels: { network_id: "net_1" },
          buckets: [
            { le: 60, count: 2 },
            { le: 300, count: 5 },
          ],
          sum: 420.5,
          count: 6,
        },
      ],
    };
    expect(renderFamilies([family]).split("\n")).toEqual([
      "# HELP wgo_age_seconds Ages.",
      "# TYPE wgo_age_seconds histogram",
      'wgo_age_seconds_bucket{network_id="net_1",le="60"} 2',
      'wgo_age_seconds_bucket{network_id="net_1",le="300"} 5',
      'wgo_age_seconds_bucket{network_id="net_1",le="+Inf"} 6',
      'wgo_age_seconds_sum{network_id="net_1"} 420.5',
      'wgo_age_seconds_count{network_id="net_1"} 6',
      "",
    ]);
    // The parser (1.1.1) folds a histogram's series into one and keeps _sum/_count only without labels: check
    // that it reads our histogram layout on an unlabelled one.
    const [parsed] = parsePrometheusTextFormat(renderFamilies([{ ...family, samples: [{ ...family.samples[0]!, labels: undefined }] }]));
    expect(parsed!.type).toBe("HISTOGRAM");
    expect(parsed!.metrics).toEqual([{ buckets: { "60": "2", "300": "5", "+Inf": "6" }, sum: "420.5", count: "6" }]);
  });

  it("special values and refusals: bad names, reserved or duplicate labels, a family twice", () => {
    expect([formatValue(Number.NaN), formatValue(Infinity), formatValue(-Infinity), formatValue(0.25)]).toEqual([
      "NaN",
      "+Inf",
      "-Inf",
      "0.25",
    ]);
    const gauge = (name: string, labels?: Record<string, string>): MetricFamily => ({
      name,
      help: "h",
      type: "gauge",
      samples: [{ labels, value: 1 }],
    });
    expect(() => renderFamilies([gauge("wgo-bad")])).toThrow(/metric name/);
    expect(() => renderFamilies([gauge("wgo_ok", { "bad-label": "x" })])).toThrow(/label name/);
    expect(() => renderFamilies([gauge("wgo_ok", { __name__: "x" })])).toThrow(/label name/);
    expect(() => renderFamilies([gauge("wgo_ok"), gauge("wgo_ok")])).toThrow(/twice/);
    expect(() =>
      renderFamilies([{ name: "wgo_h", help: "h", type: "histogram", samples: [{ labels: { le: "1" }, buckets: [], sum: 0, count: 0 }] }]),
    ).toThrow(/bucket label/);
  });
});
