// cli/retry-after.mjs: a fleet told "not now" asks again spread over the server's seconds and half again.
import { describe, expect, it } from "vitest";

// wgo is plain JavaScript: loaded as the other wgo suites load it (support/cli.ts), untyped.
const { ApiError } = await import(/* @vite-ignore */ `../../cli/${"errors.mjs"}`);
const { RETRY_JITTER, retryAfterMs } = await import(/* @vite-ignore */ `../../cli/${"retry-after.mjs"}`);

const refusal = (status: number, retryAfter: string | null) =>
  new ApiError(status, { error: { code: "unavailable", message: "busy" } }, { retryAfter });

describe("retryAfterMs", () => {
  it("waits Retry-After plus up to half again, drawn per call, within the cap", () => {
    expect(retryAfterMs(refusal(503, "2"), { capMs: 60_000, random: () => 0 })).toBe(2_000);
    expect(retryAfterMs(refusal(503, "2"), { capMs: 60_000, random: () => 0.999_999 })).toBeCloseTo(2_000 * (1 + RETRY_JITTER), 0);
    expect(retryAfterMs(refusal(429, "120"), { capMs: 30_000, random: () => 0.5 })).toBe(30_000);
    // A thousand machines told "1" spread over 1-1.5 s rather than all asking again at once.
    const waits: number[] = Array.from({ length: 1_000 }, () => retryAfterMs(refusal(503, "1"), { capMs: 60_000 }));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(1_500);
    expect(new Set(waits.map((ms) => Math.floor(ms / 100))).size).toBeGreaterThanOrEqual(4);
  });

  it("is null without a usable Retry-After, or for other failures", () => {
    expect(retryAfterMs(refusal(503, null), { capMs: 1_000 })).toBeNull();
    expect(retryAfterMs(refusal(503, "soon"), { capMs: 1_000 })).toBeNull();
    expect(retryAfterMs(refusal(500, "1"), { capMs: 1_000 })).toBeNull();
    expect(retryAfterMs(new Error("socket hang up"), { capMs: 1_000 })).toBeNull();
  });
});
