// How a failure reaches the user: one line on stderr, or with --json one object `{ error: { code,
// message, … } }` shaped like the API's own envelope. The common failures (wrong password, a server that
// cannot be reached, TLS, not root) get a plain hint saying what to check, instead of a bare errno.
import { ApiError, CredentialRefusedError, EXIT, NetworkError, OperationError, UsageError } from "./errors.mjs";
import { namedNetnsHere } from "./netns-here.mjs";

/**
 * @typedef {{ exit: number, code: string, message: string, hint?: string, status?: number,
 *   fields?: Array<{ path: string, message: string }>, retryAfter?: string, usage?: string }} Failure
 * @param {unknown} error
 * @param {{ netns?: () => string | null }} [context] where this runs (tests say it; by default namedNetnsHere)
 * @returns {Failure}
 */
export function describeFailure(error, { netns = namedNetnsHere } = {}) {
  if (error instanceof UsageError) return { exit: EXIT.usage, code: "usage_error", message: error.message, usage: error.usage };
  if (error instanceof ApiError) {
    return {
      exit: EXIT.failed,
      code: error.code,
      message: error.message,
      status: error.status,
      ...(error.fields.length > 0 ? { fields: error.fields } : {}),
      ...(error.retryAfter ? { retryAfter: error.retryAfter } : {}),
      ...optional("hint", apiHint(error)),
    };
  }
  if (error instanceof NetworkError) {
    const { code, hint } = networkHint(error.message);
    // `ip netns exec NS wgo up …` talks to the API from inside NS, which often has no route out: wgo runs
    // on the host and puts the interface into the namespace itself with --netns.
    const inside = netns();
    const where = inside
      ? `; this runs inside network namespace "${inside}" (ip netns exec), which may not reach the API: run wgo on the host with --netns ${inside} instead`
      : "";
    return { exit: EXIT.failed, code, message: `cannot reach ${error.url}: ${error.message}`, hint: `${hint}${where}` };
  }
  if (error instanceof CredentialRefusedError) return { exit: EXIT.credentialRefused, code: "credential_refused", message: error.message };
  if (error instanceof OperationError) {
    if (error.code) return { exit: EXIT.failed, code: error.code, message: error.message };
    if (PERMISSION.test(error.message)) {
      return {
        exit: EXIT.failed,
        code: "not_root",
        message: error.message,
        hint: "this needs root (CAP_NET_ADMIN for interfaces, write access for system files): run it with sudo",
      };
    }
    return { exit: EXIT.failed, code: "operation_failed", message: error.message };
  }
  // Anything else is a bug in wgo itself: say so, with the message, but still one line.
  return {
    exit: EXIT.failed,
    code: "unexpected",
    message: `unexpected failure: ${error instanceof Error ? error.message : String(error)}`,
  };
}

/** The one line on stderr, the way wgo always printed errors, plus the hint after a `;`. */
export function errorLine(failure) {
  let line = failure.status === undefined ? `error: ${failure.message}` : `error: ${failure.status} ${failure.code}: ${failure.message}`;
  if (failure.fields) line += ` (${failure.fields.map((f) => `${f.path || "body"}: ${f.message}`).join("; ")})`;
  if (failure.retryAfter) line += ` (retry after ${failure.retryAfter} s)`;
  if (failure.hint) line += `; ${failure.hint}`;
  return line;
}

/** `{ error: {...} }` for --json: the API's envelope fields, wgo's own code when the API said nothing. */
export function errorJson(failure) {
  const { exit: _exit, ...error } = failure;
  return { error };
}

const PERMISSION = /Operation not permitted|Permission denied|\bEPERM\b|\bEACCES\b/i;
const TLS = /CERT|SSL|TLS|EPROTO|self[- ]signed|certificate/i;

function apiHint(error) {
  if (error.status === 401 && error.path === "/auth/login") {
    return `the email or password is wrong for ${error.api ?? "this API"}: check both (and that the account exists there)`;
  }
  if (error.status === 401 && error.path?.startsWith("/client/devices/")) {
    return "the device credential was refused: the device was deleted or revoked; enrol this machine again";
  }
  return undefined;
}

/** @param {string} reason the socket error's code (ECONNREFUSED), or the timeout's sentence */
function networkHint(reason) {
  if (reason === "ECONNREFUSED") {
    return {
      code: "unreachable",
      hint: "nothing accepts connections there: check the URL and port (--api or WGO_API) and that the control plane runs",
    };
  }
  if (reason === "ENOTFOUND" || reason === "EAI_AGAIN") {
    return { code: "unreachable", hint: "the host name does not resolve: check its spelling (--api or WGO_API) and this machine's DNS" };
  }
  if (TLS.test(reason)) {
    return {
      code: "tls_error",
      hint:
        "the TLS connection failed: the server's certificate is not trusted here or does not name this host " +
        "(a private CA: NODE_EXTRA_CA_CERTS=/path/ca.pem), or the URL says https:// for a plain http:// server",
    };
  }
  if (/^no answer within/.test(reason) || /ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET/.test(reason)) {
    return { code: "unreachable", hint: "no answer: check the network path to the host (firewall, proxy, VPN) and that the URL is right" };
  }
  return { code: "unreachable", hint: "check the URL (--api or WGO_API) and this machine's network" };
}

function optional(key, value) {
  return value === undefined ? {} : { [key]: value };
}
