// The gateway agent's state directory: what it needs to restart cleanly without the API.
//   agent.json                 the agent credential (agc_…), its API origin, ids          0600
//   nodes/<nodeId>/private.key the node's WireGuard private key, generated here, never sent 0600
//   nodes/<nodeId>/node.json   the held config and what was applied (revisions, interface, DNS)
//   nodes/<nodeId>/dns/        the zone file and the DNS server's own config and run files
//   status.json                the last poll, for `wgo gateway status`
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { OperationError } from "../errors.mjs";
import { ensurePrivateDir, readJson, readText, writeSecretFile, writeSecretJson } from "../files.mjs";
import { generateKeyPair, publicKeyOf } from "../keys.mjs";

/** Where a systemd service keeps its state (StateDirectory=wgo-gateway). */
export const DEFAULT_STATE_DIR = "/var/lib/wgo-gateway";

export const statePaths = {
  agent: (dir) => join(dir, "agent.json"),
  status: (dir) => join(dir, "status.json"),
  nodes: (dir) => join(dir, "nodes"),
  node: (dir, nodeId) => join(dir, "nodes", nodeId),
  key: (dir, nodeId) => join(dir, "nodes", nodeId, "private.key"),
  record: (dir, nodeId) => join(dir, "nodes", nodeId, "node.json"),
  dns: (dir, nodeId) => join(dir, "nodes", nodeId, "dns"),
  /** The wg-quick copy applyConfig writes for the wg-quick method; the agent uses setconf, it stays unused. */
  wgQuick: (dir, nodeId) => join(dir, "nodes", nodeId, "wg.conf"),
};

/**
 * @typedef {{ api: string, agentId: string, gatewayId: string, credential: string, name: string }} AgentRecord
 * @typedef {{ nodeId: string, networkId: string, ifname: string, netns: string | null, config: any | null,
 *   appliedRouting: number, appliedDns: number | null, dns: { domain: string, revision: number, server: string } | null,
 *   error: string | null, probes?: Array<{ target: string, acrossNodeId: string }>, accessFilter?: boolean }} NodeRecord
 */

/** @returns {AgentRecord} */
export function loadAgent(dir) {
  const agent = readJson(statePaths.agent(dir));
  if (!agent) throw new OperationError(`no agent credential in ${dir}: run \`wgo gateway enrol --state-dir ${dir} --token aet_…\` first`);
  return agent;
}

export function saveAgent(dir, agent) {
  ensurePrivateDir(dir);
  writeSecretJson(statePaths.agent(dir), agent);
}

/** Node ids with a directory here, sorted: what this gateway set up, whether or not the server still wants it. */
export function heldNodeIds(dir) {
  try {
    return readdirSync(statePaths.nodes(dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && /^[A-Za-z0-9_-]{1,64}$/.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/** @returns {NodeRecord | null} */
export const loadNode = (dir, nodeId) => readJson(statePaths.record(dir, nodeId));

export function saveNode(dir, record) {
  writeSecretJson(statePaths.record(dir, record.nodeId), record);
}

export function forgetNode(dir, nodeId) {
  rmSync(statePaths.node(dir, nodeId), { recursive: true, force: true });
}

/** The node's key pair: made here the first time and kept; the private half never leaves this file. */
export function nodeKeyPair(dir, nodeId) {
  const path = statePaths.key(dir, nodeId);
  const stored = readText(path);
  if (stored !== null) return { privateKey: stored.trim(), publicKey: publicKeyOf(stored.trim()) };
  const pair = generateKeyPair();
  writeSecretFile(path, `${pair.privateKey}\n`);
  return pair;
}

export const loadStatus = (dir) => readJson(statePaths.status(dir));
export const saveStatus = (dir, status) => writeSecretJson(statePaths.status(dir), status);
