import { describe, expect, it } from "vitest";
import { GroupCommit } from "../../src/lib/group-commit";
import { currentGeneration, forgetLiveSessions, recentlyLive, rememberLive } from "../../src/services/auth/session-cache";

/** A write that records what it was given and finishes when the test says so. */
function gatedWriter(fail: (items: string[]) => boolean = () => false) {
  const calls: string[][] = [];
  const gates: (() => void)[] = [];
  const write = (items: string[]) => {
    calls.push(items);
    return new Promise<void>((resolve, reject) => gates.push(() => (fail(items) ? reject(new Error(`refused ${items}`)) : resolve())));
  };
  const openNext = async () => {
    while (gates.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    gates.shift()!();
  };
  return { calls, write, openNext };
}

describe("GroupCommit", () => {
  it("writes a lone item at once, and what arrives during a write together in the next one", async () => {
    const writer = gatedWriter();
    const commit = new GroupCommit<string>(writer.write);
    const first = commit.submit("a", "a1");
    expect(writer.calls).toEqual([["a1"]]);
    const later = ["b", "c", "d"].map((key) => commit.submit(key, `${key}1`));
    expect(writer.calls).toHaveLength(1);
    await writer.openNext();
    await first;
    await writer.openNext();
    await Promise.all(later);
    expect(writer.calls).toEqual([["a1"], ["b1", "c1", "d1"]]);
  });

  it("a newer item of the same key replaces the waiting one; both callers settle with its write", async () => {
    const writer = gatedWriter();
    const commit = new GroupCommit<string>(writer.write);
    const busy = commit.submit("x", "x1");
    const older = commit.submit("y", "y1");
    const newer = commit.submit("y", "y2");
    await writer.openNext();
    await writer.openNext();
    await Promise.all([busy, older, newer]);
    expect(writer.calls).toEqual([["x1"], ["y2"]]);
  });

  it("a failing batch is retried item by item: only the bad item's callers see the error", async () => {
    const writer = gatedWriter((items) => items.includes("bad"));
    const commit = new GroupCommit<string>(writer.write);
    const busy = commit.submit("first", "first");
    const good = commit.submit("good", "good");
    const bad = commit.submit("bad", "bad");
    const outcomes = Promise.allSettled([good, bad]);
    for (let i = 0; i < 4; i++) await writer.openNext();
    await busy;
    const [goodOutcome, badOutcome] = await outcomes;
    expect(goodOutcome.status).toBe("fulfilled");
    expect(badOutcome).toMatchObject({ status: "rejected", reason: expect.objectContaining({ message: "refused bad" }) });
    expect(writer.calls).toEqual([["first"], ["good", "bad"], ["good"], ["bad"]]);
  });

  it("merges items of one key that wait for the same flush with the merge given", async () => {
    const writer = gatedWriter();
    const commit = new GroupCommit<string>(writer.write, (older, newer) => `${older}+${newer}`);
    const busy = commit.submit("x", "x1");
    const waiting = [commit.submit("y", "y1"), commit.submit("y", "y2")];
    await writer.openNext();
    await writer.openNext();
    await Promise.all([busy, ...waiting]);
    expect(writer.calls).toEqual([["x1"], ["y1+y2"]]);
  });
});

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
