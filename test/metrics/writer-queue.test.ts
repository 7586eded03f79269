import { describe, expect, it } from "vitest";
import { SerialQueue } from "../../src/lib/serial-queue";

describe("the writer's queue depth (SerialQueue.depth, reported as wgo_writer_queue_depth)", () => {
  it("counts the running task and those waiting behind it, failures included, and is 0 when idle", async () => {
    const queue = new SerialQueue();
    expect(queue.depth).toBe(0);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = queue.run(() => gate);
    const second = queue.run(async () => {
      throw new Error("refused");
    });
    const third = queue.run(async () => queue.depth);
    expect(queue.depth).toBe(3);
    release();
    await first;
    await expect(second).rejects.toThrow("refused");
    expect(await third).toBe(1); // itself, running
    expect(queue.depth).toBe(0);
  });
});
