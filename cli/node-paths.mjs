// The server's view of how a node reaches each peer (docs/nat.md): `GET /nodes/{id}/paths`, asked with the
// device's own credential, for `wgo status`. A server from before issue 28 has no such route: status then
// says the paths are unavailable and goes on, as it does for anything else that keeps it from this answer.
import { deviceRequest } from "./device-state.mjs";
import { ApiError, NetworkError } from "./errors.mjs";

/**
 * @typedef {import("./api-types.js").NodePaths} NodePaths
 * @typedef {({ available: true } & NodePaths) | { available: false, reason: string }} PathsStatus
 */

/**
 * @param {import("./device-state.mjs").Device} device
 * @returns {Promise<PathsStatus>}
 */
export async function fetchPaths(ctx, device) {
  try {
    /** @type {NodePaths} */
    const paths = await deviceRequest(ctx, device, { method: "GET", path: `/nodes/${encodeURIComponent(device.nodeId)}/paths` });
    return { available: true, nodeId: paths.nodeId, candidates: paths.candidates ?? [], items: paths.items ?? [] };
  } catch (error) {
    // A 404 "No route for GET …" is a server from before issue 28.
    if (error instanceof ApiError) return { available: false, reason: `${error.status} ${error.code}: ${error.message}` };
    if (error instanceof NetworkError) return { available: false, reason: `${error.url} is unreachable (${error.message})` };
    throw error;
  }
}

/** "12 s ago", "4 min ago", "3 h ago", "2 d ago"; a time in the future (clock skew) is "just now". */
export function age(at, now) {
  const seconds = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  if (seconds < 120) return seconds < 1 ? "just now" : `${seconds} s ago`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}

const pathWords = (item) => (item.path === "relay" ? `relay via ${item.via?.name ?? item.via?.nodeId ?? "?"}` : item.path);

/**
 * The lines `wgo status` prints under a device: one per peer, then the candidates on one line.
 * @param {PathsStatus} paths @param {number} now
 */
export function describePaths(paths, now) {
  if ("reason" in paths) return [`  paths: unavailable: ${paths.reason}`];
  const lines = [`  paths (the server's view):${paths.items.length === 0 ? " no peers" : ""}`];
  for (const item of paths.items) {
    const handshake = item.lastHandshakeAt ? `handshake ${age(item.lastHandshakeAt, now)}` : "no handshake";
    lines.push(`    ${item.peerName} (${item.peerNodeId}): ${pathWords(item)}, endpoint ${item.endpoint ?? "none"}, ${handshake}`);
  }
  const candidates = paths.candidates.map((c) => `${c.endpoint} (${c.source}, ${age(c.seenAt, now)})`);
  lines.push(`  candidates: ${candidates.length > 0 ? candidates.join(", ") : "none learned yet"}`);
  return lines;
}
