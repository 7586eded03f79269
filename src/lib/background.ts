import type { Context } from "hono";
import { describeForLog } from "./log";
import type { AppEnv } from "./types";

/**
 * Runs work after the response: waitUntil keeps the isolate alive for it. Failures are logged (with the
 * request id) and never reach the client, whose request already succeeded.
 */
export function inBackground(c: Context<AppEnv>, label: string, work: () => Promise<unknown>): Promise<void> {
  const task = work().then(
    () => undefined,
    (error: unknown) => {
      console.error(JSON.stringify({ background: label, requestId: c.var.requestId, ...describeForLog(error) }));
    },
  );
  try {
    c.executionCtx.waitUntil(task);
  } catch {
    // No execution context (app.request() in unit tests): the task still runs; nothing to register it with.
  }
  return task;
}
