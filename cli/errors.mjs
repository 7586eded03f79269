// The ways a command fails, each with its exit code (failures.mjs renders them, as a line or as JSON).
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
   * @param {{ retryAfter?: string | null, text?: string, path?: string, api?: string }} [extra]
   */
  constructor(status, envelope, extra = {}) {
    super(envelope?.message ?? (extra.text ? firstLine(extra.text) : "no error body"));
    this.status = status;
    this.code = envelope?.code ?? "http_error";
    this.fields = envelope?.fields ?? [];
    this.retryAfter = extra.retryAfter ?? null;
    /** Which call it was (`/auth/login`, …) and where: what a plain hint is chosen by. */
    this.path = extra.path ?? null;
    this.api = extra.api ?? null;
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

/**
 * A local step failed (a command such as `wg setconf`, a missing file, a state conflict). `code` names
 * the common failures (`port_in_use`, `missing_tool`, `no_handshake`, …) for `--json`; failures.mjs
 * classifies the rest.
 */
export class OperationError extends Error {
  /** @param {string} message @param {{ code?: string }} [options] */
  constructor(message, options = {}) {
    super(message);
    this.code = options.code ?? null;
  }
}

/**
 * A daemon's credential was revoked or rotated: only a new enrolment helps, so it exits with its own
 * code, which a service manager can be told not to restart on (RestartPreventExitStatus=3).
 */
export class CredentialRefusedError extends OperationError {}

/** @param {string} text */
export function firstLine(text) {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || "empty response";
}
