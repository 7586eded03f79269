/**
 * Runs tasks one at a time, in arrival order. A Durable Object's input gate opens while it awaits
 * D1, so without this two mutations could interleave between their read and their batch.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
