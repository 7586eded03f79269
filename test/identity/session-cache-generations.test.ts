import { describe, expect, it } from "vitest";
import { currentGeneration, forgetLiveSessions, recentlyLive, rememberLive } from "../../src/services/auth/session-cache";

describe("session cache generations", () => {
  it("a verdict from a check that started before a forget is not stored", () => {
    const startedAt = currentGeneration();
    forgetLiveSessions();
    rememberLive("stale", startedAt);
    expect(recentlyLive("stale")).toBe(false);
    rememberLive("fresh", currentGeneration());
    expect(recentlyLive("fresh")).toBe(true);
  });
});
