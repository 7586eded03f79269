/**
 * drizzle's query errors carry "params: …" (password hashes, token hashes) in their message: the log
 * keeps the error's name, the SQL text and the driver's cause, never the bound values.
 */
export function describeForLog(error: unknown) {
  const err = error as { name?: string; message?: string; cause?: { message?: string }; query?: string };
  const message = (err.message ?? String(error)).replace(/params:[\s\S]*$/, "params: [redacted]");
  return { error: err.name ?? "Error", message, cause: err.cause?.message, query: err.query };
}
