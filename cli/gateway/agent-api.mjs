// The agent API a gateway daemon speaks (docs/agents.md): enrol once, then poll desired state (ETag and
// long poll), register each node's public key, and report what was applied. Every call but enrol uses
// the agent credential; a 401 means it was revoked or rotated, which the run loop treats as fatal.
import { apiExchange, apiRequest } from "../http.mjs";
import { VERSION } from "../version.mjs";

/** How long the server may hold a poll open when nothing changed; the request times out a little later. */
export const LONG_POLL_SECONDS = 25;

/** Trades the single-use enrolment token (aet_…) for the agent and its credential (agc_…). */
export const enrolAgent = (api, token, name) =>
  apiRequest({
    api,
    path: "/agents/enrol",
    body: /** @satisfies {import("../api-types.js").RequestBody<"/agents/enrol", "post">} */ ({ token, name, version: `wgo ${VERSION}` }),
  });

/**
 * @param {import("./state.mjs").AgentRecord} agent
 * @param {{ etag: string | null, held: Array<{ nodeId: string, routing: number, dns: number }>, wait: number, signal?: AbortSignal }} poll
 * @returns {Promise<{ status: number, etag: string | null, body: any, bytes: number }>}
 */
export function fetchDesiredState(agent, { etag, held, wait, signal }) {
  const query = new URLSearchParams();
  if (held.length > 0) query.set("held", held.map((h) => `${h.nodeId}:${h.routing}:${h.dns}`).join(","));
  if (wait > 0) query.set("wait", String(wait));
  const search = query.size > 0 ? `?${query}` : "";
  return apiExchange({
    api: agent.api,
    method: "GET",
    path: `/agents/me/desired-state${search}`,
    token: agent.credential,
    headers: etag ? { "if-none-match": etag } : {},
    timeoutMs: (wait + 15) * 1000,
    signal,
  });
}

/** Tells the server the node's public key (its private half stays here) and whether this gateway serves DNS for it. */
export const claimNode = (agent, nodeId, publicKey, servesDns) =>
  apiRequest({
    api: agent.api,
    method: "PUT",
    path: `/agents/me/nodes/${encodeURIComponent(nodeId)}`,
    token: agent.credential,
    body: /** @satisfies {import("../api-types.js").RequestBody<"/agents/me/nodes/{nodeId}", "put">} */ ({ publicKey, servesDns }),
  });
