/**
 * Runs tasks one at a time, in arrival order. A Durable Object's input gate opens while it awaits
 * D1, so without this two mutations could interleave between their read and their batch.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;
  /** Tasks ever accepted: the turns the queue has given (a writer's stats). */
  turns = 0;

  run<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    this.turns++;
    const result = this.tail.then(task, task).finally(() => {
      this.pending--;
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Tasks accepted and not yet finished, the running one included (0 when idle): the writer's queue depth. */
  get depth() {
    return this.pending;
  }
}
