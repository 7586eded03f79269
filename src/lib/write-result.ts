import { isUniqueViolation } from "./db-errors";
import { ApiError, conflict, reviveError, serializeError, type SerializedError } from "./errors";

/** What crosses the RPC boundary from a writer: a value, or an API error as plain data (unwrap throws it again). */
export type WriteResult<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

export async function capture<T>(task: () => Promise<T>): Promise<WriteResult<T>> {
  try {
    return { ok: true, value: await task() };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: serializeError(error) };
    // The writer's own checks come first; the unique indexes are the last line, never a 500.
    if (isUniqueViolation(error)) return { ok: false, error: serializeError(conflict("The change collides with an existing record")) };
    throw error;
  }
}

export async function unwrap<T>(result: Promise<WriteResult<T>>): Promise<T> {
  const settled = await result;
  if (settled.ok) return settled.value;
  throw reviveError(settled.error);
}
