// The three ways a command fails, each with its exit code, and the one-line rendering of each.
// Exit 2 is reserved for "you typed it wrong" so scripts can tell a typo from a failing server.

export const EXIT = { ok: 0, failed: 1, usage: 2, credentialRefused: 3 };

/** Wrong command line: unknown flag, missing value, bad value. Printed with the command's usage. */
export class UsageError extends Error {
  /** @param {string} message @param {string} [usage] */
  constructor(message, usage) {
    super(message);
    this.usage = usage;
  }
}

/** The API answered with an error status; fields mirror the envelope `{ error: { code, message, fields? } }`. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {{ code?: string, message?: string, fields?: Array<{ path: string, message: string }> } | null} envelope
   * @param {{ retryAfter?: string | null, text?: string }} [extra]
   */
  constructor(status, envelope, extra = {}) {
    super(envelope?.message ?? (extra.text ? firstLine(extra.text) : "no error body"));
    this.status = status;
    this.code = envelope?.code ?? "http_error";
    this.fields = envelope?.fields ?? [];
    this.retryAfter = extra.retryAfter ?? null;
  }
}

/** The API could not be reached at all (refused, DNS, timeout). */
export class NetworkError extends Error {
  /** @param {string} url @param {string} reason */
  constructor(url, reason) {
    super(reason);
    this.url = url;
  }
}

/** A local step failed (a command such as `wg setconf`, a missing file, a state conflict). */
export class OperationError extends Error {}

/**
 * A daemon's credential was revoked or rotated: only a new enrolment helps, so it exits with its own
 * code, which a service manager can be told not to restart on (RestartPreventExitStatus=3).
 */
export class CredentialRefusedError extends OperationError {}

/** @param {unknown} error @returns {{ line: string, code: number, usage?: string }} */
export function renderError(error) {
  if (error instanceof UsageError) return { line: `error: ${error.message}`, code: EXIT.usage, usage: error.usage };
  if (error instanceof ApiError) {
    let line = `error: ${error.status} ${error.code}: ${error.message}`;
    if (error.fields.length > 0) line += ` (${error.fields.map((f) => `${f.path || "body"}: ${f.message}`).join("; ")})`;
    if (error.retryAfter) line += ` (retry after ${error.retryAfter} s)`;
    return { line, code: EXIT.failed };
  }
  if (error instanceof NetworkError) return { line: `error: cannot reach ${error.url}: ${error.message}`, code: EXIT.failed };
  if (error instanceof CredentialRefusedError) return { line: `error: ${error.message}`, code: EXIT.credentialRefused };
  if (error instanceof OperationError) return { line: `error: ${error.message}`, code: EXIT.failed };
  // Anything else is a bug in wgo itself: say so, with the message, but still one line.
  const message = error instanceof Error ? error.message : String(error);
  return { line: `error: unexpected failure: ${message}`, code: EXIT.failed };
}

/** @param {string} text */
function firstLine(text) {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || "empty response";
}
