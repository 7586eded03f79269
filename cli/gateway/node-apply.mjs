// One gateway node on this machine, made to match its desired state: its key pair (made here; only the
// public key goes to the server), its WireGuard interface (kernel or wireguard-go, `wg syncconf`, addresses,
// routes for its AllowedIPs and routingIntent, forwarding), and its DNS server for the network's zone.
// What cannot be applied is checked before anything is touched and comes back as the node's error.
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { applyConfigDelta } from "../config-delta.mjs";
import { ApiError, OperationError } from "../errors.mjs";
import { readText, writeSecretFile } from "../files.mjs";
import { dropAccess, enforceAccess } from "../access-filter.mjs";
import { applyConfig, interfaceExists, takeDown } from "../interface.mjs";
import { fillPrivateKey } from "../wg-quick-text.mjs";
import { claimNode } from "./agent-api.mjs";
import { ensureNamespace } from "./domain-apply.mjs";
import { serveZone, stopZone } from "./dns-server.mjs";
import { forgetNode, loadNode, nodeKeyPair, saveNode, statePaths } from "./state.mjs";

/** A stable interface name per node (Linux allows 15 bytes): wireguard-go's sockets are shared across namespaces. */
export const interfaceFor = (nodeId) => `wgo${createHash("sha256").update(nodeId).digest("hex").slice(0, 8)}`;

/**
 * @typedef {{ dir: string, agent: import("./state.mjs").AgentRecord, sys: import("../system.mjs").System,
 *   systemFor: (netns: string | null) => import("../system.mjs").System, netns: string | null,
 *   env: NodeJS.ProcessEnv, dnsKind: "knot" | "coredns" | null,
 *   prober?: ReturnType<typeof import("./prober.mjs").createProber> | null, reportSoon?: (() => void) | null }} NodeContext
 */

/** The revisions this gateway holds for a node, as the desired-state poll's `held` entry (null: hold nothing). */
export function heldEntry(dir, nodeId) {
  const record = loadNode(dir, nodeId);
  if (!record?.config) return null;
  return { nodeId, routing: record.config.routingRevision, dns: record.dns ? record.dns.revision : 0 };
}

/**
 * Applies one entry of the desired state. Returns the node's record (with `error` set when it could not
 * be applied; the previous state then keeps running) and whether the server had to be told the key.
 * @param {NodeContext} ctx
 */
export async function applyNode(ctx, entry) {
  /** @type {import("./state.mjs").NodeRecord} */
  const record = loadNode(ctx.dir, entry.nodeId) ?? {
    nodeId: entry.nodeId,
    networkId: entry.networkId,
    ifname: interfaceFor(entry.nodeId),
    netns: null, // set below, once its network's namespace exists
    config: null,
    appliedRouting: 0,
    appliedDns: null,
    dns: null,
    error: null,
  };
  const keys = nodeKeyPair(ctx.dir, entry.nodeId);
  const servesDns = ctx.dnsKind !== null;
  let claimed = false;
  try {
    if (entry.publicKey !== keys.publicKey || entry.servesDns !== servesDns) {
      await claimNode(ctx.agent, entry.nodeId, keys.publicKey, servesDns);
      claimed = true;
    }
    const config = entry.config ?? applyConfigDelta(record.config, entry.delta);
    // The node lives in its network's routing domain; a node set up elsewhere before (an agent upgraded in
    // place, whose nodes ran in the host's namespace) is taken down there first and comes up inside it.
    const netns = await ensureNamespace(ctx, entry.networkId);
    if (record.netns !== netns) await leaveOldPlace(ctx, record);
    const heldBefore = { config: record.config, netns: record.netns };
    record.netns = netns;
    const sys = ctx.systemFor(netns);
    // Checked when the address is new here; an address this node already holds (every re-apply, a failover's
    // among them) saves the read on the critical path.
    if (!holdsAddress(heldBefore, config, netns)) await assertAddressFree(sys, record.ifname, config.interface.address);
    const text = fillPrivateKey(config.wgQuick, keys.privateKey);
    const applied = await applyConfig({
      sys,
      birthSys: ctx.sys, // born in the underlay: its UDP socket stays there, reachable at the node's endpoint
      ifname: record.ifname,
      text,
      method: "setconf",
      wgQuickPath: statePaths.wgQuick(ctx.dir, entry.nodeId),
      env: ctx.env,
    });
    if (applied.action === "created") await sendNoRedirects(sys, record.ifname);
    // Policy mode: the node's inbound filter and, on a hop, the forward filter, in its network's namespace.
    record.accessFilter = await enforceAccess(sys, ctx.dir, record.ifname, config, record.accessFilter === true);
    Object.assign(record, { config, appliedRouting: config.routingRevision, error: null });
    // Probes the server asks of this node: kept with it, so reports between polls (and after 304s) run them.
    record.probes = validProbes(entry.probes);
    if (servesDns) await serveNodeZone(ctx, sys, record, entry.dns, config.interface.address.split("/")[0]);
  } catch (error) {
    // A refused credential ends the daemon; anything else the server refuses (the node moved to another
    // gateway, its key is taken) is this node's error, and the other nodes go on.
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) throw error;
    record.error =
      error instanceof ApiError
        ? `the server refused this node's key: ${error.status} ${error.code}: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error);
    // Hold no base for the next delta: the next poll brings the whole config.
    if (entry.delta) record.config = null;
  }
  saveNode(ctx.dir, record);
  return { record, claimed };
}

/**
 * A relay forwards a relayed pair in and out of its one WireGuard interface (docs/nat.md), which Linux answers
 * with ICMP redirects to the sender ("reach it directly"): wrong for a relay, whose pair cannot, and noise on
 * the tunnel. Off for the interface, and for `all` of its network's namespace (the kernel ORs the two).
 */
async function sendNoRedirects(sys, ifname) {
  for (const scope of ["all", ifname]) await sys.check(["sysctl", "-q", "-w", `net.ipv4.conf.${scope}.send_redirects=0`]);
}

/** Whether the node's interface was last applied here with this address (then no other interface took it from us). */
const holdsAddress = (held, config, netns) =>
  held.config !== null && held.netns === netns && held.config.interface.address === config.interface.address;

/** The interface and DNS server of a node set up outside its domain (the layout before routing domains). */
async function leaveOldPlace(ctx, record) {
  const old = ctx.systemFor(record.netns);
  if (await interfaceExists(old, record.ifname)) {
    await takeDown({ sys: old, ifname: record.ifname, method: "setconf", wgQuickPath: statePaths.wgQuick(ctx.dir, record.nodeId) });
  }
  // Its DNS server listens in the old place: stopped, and started again inside the domain from the same zone.
  const dir = statePaths.dns(ctx.dir, record.nodeId);
  const zone = readZone(dir);
  await stopZone(dir);
  if (zone !== null) writeSecretFile(`${dir}/zone`, zone);
}

/** Serves the zone the entry carries, or the copy kept here when the server knew this revision was held. */
async function serveNodeZone(ctx, sys, record, dns, address) {
  const dir = statePaths.dns(ctx.dir, record.nodeId);
  const zonefile = dns.zonefile ?? (record.dns?.revision === dns.revision ? readZone(dir) : null);
  if (zonefile === null) throw new OperationError(`no zone for DNS revision ${dns.revision}: the next poll fetches it`);
  const server = await serveZone(sys, { dir, kind: ctx.dnsKind, address, domain: dns.domain, zonefile });
  record.dns = { domain: dns.domain, revision: dns.revision, server };
  record.appliedDns = dns.revision;
}

const readZone = (dir) => readText(`${dir}/zone`);

/**
 * `ip address add` of an address another interface holds would take it from a working service (or fail
 * half-way): refuse before touching anything.
 */
async function assertAddressFree(sys, ifname, cidr) {
  const wanted = cidr.split("/")[0];
  const links = JSON.parse(await sys.check(["ip", "-j", "address", "show"]));
  for (const link of links) {
    if (link.ifname === ifname) continue;
    if ((link.addr_info ?? []).some((info) => info.local === wanted)) {
      throw new OperationError(`address ${wanted} is already on interface ${link.ifname}; not applied`);
    }
  }
}

/** Probe targets go on a command line: only overlay addresses, with the node id they cross. */
function validProbes(probes) {
  if (!Array.isArray(probes)) return [];
  return probes.filter((probe) => isIP(String(probe?.target)) !== 0 && /^[A-Za-z0-9_-]{1,64}$/.test(String(probe?.acrossNodeId)));
}

/** Takes down what this gateway set up for a node the server no longer gives it, and forgets it. */
export async function removeNode(ctx, nodeId) {
  const record = loadNode(ctx.dir, nodeId);
  if (record) {
    const sys = ctx.systemFor(record.netns);
    await takeDown({ sys, ifname: record.ifname, method: "setconf", wgQuickPath: statePaths.wgQuick(ctx.dir, nodeId) });
    await dropAccess(sys, ctx.dir, record.ifname, record.accessFilter === true);
  }
  await stopZone(statePaths.dns(ctx.dir, nodeId));
  forgetNode(ctx.dir, nodeId);
}

/** Takes a node's interface and DNS server down but keeps its key and config (`wgo gateway down`; `run` brings it back). */
export async function stopNode(ctx, nodeId) {
  const record = loadNode(ctx.dir, nodeId);
  if (!record) return;
  const sys = ctx.systemFor(record.netns);
  await takeDown({ sys, ifname: record.ifname, method: "setconf", wgQuickPath: statePaths.wgQuick(ctx.dir, nodeId) });
  await dropAccess(sys, ctx.dir, record.ifname, record.accessFilter === true);
  await stopZone(statePaths.dns(ctx.dir, nodeId));
  // The zone file is gone: hold no DNS revision (nor filter), so the next answer carries them again.
  saveNode(ctx.dir, { ...record, dns: null, appliedDns: null, accessFilter: false });
}
