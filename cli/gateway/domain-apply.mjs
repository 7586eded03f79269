// Carries out the routing domains cli/gateway/domains.mjs plans: one network namespace per served network
// (made before its nodes' interfaces move in), its veth to the host with the link addresses, routes for the
// egress destinations it was granted, masquerade inside the namespace, and the host's table that keeps the
// domains apart. What this host set up is kept in the state directory (domains.json), so a restart finds its
// link subnets and egress claims again, and `wgo gateway down` can remove all of it.
import { join } from "node:path";
import { canonicalPrefix, parsePrefix } from "../cidr.mjs";
import { OperationError } from "../errors.mjs";
import { readJson, writeSecretJson } from "../files.mjs";
import { runNft } from "../nft.mjs";
import { syncAddresses } from "../routes.mjs";
import {
  chooseLinkSubnet,
  DOMAIN_TABLE,
  domainNames,
  domainRuleset,
  egressOf,
  HOST_TABLE,
  hostRuleset,
  replaceTable,
  resolveEgressClaims,
} from "./domains.mjs";
import { heldNodeIds, loadNode } from "./state.mjs";

const domainsFile = (dir) => join(dir, "domains.json");
/** @returns {Record<string, { netns: string, hostIf: string, nsIf: string, link: ReturnType<typeof chooseLinkSubnet>, held: string[] }>} */
const loadDomains = (dir) => readJson(domainsFile(dir)) ?? {};
const saveDomains = (dir, domains) => writeSecretJson(domainsFile(dir), domains);

/** The root namespace's system: network namespaces are named and made there, where wgo runs. */
const rootOf = (ctx) => ctx.systemFor(null);

/**
 * What this process already applied (namespace made, link and table set up, host table): a round that would
 * apply the same again skips those commands, so a busy gateway's rounds stay cheap. A restart applies it all.
 */
function appliedCache(ctx) {
  if (!ctx.domainCache) ctx.domainCache = new Map();
  return ctx.domainCache;
}

async function namespaceExists(ctx, netns) {
  const listed = await rootOf(ctx).check(["ip", "netns", "list"]);
  return listed.split("\n").some((line) => line.split(" ")[0] === netns);
}

/** The network's namespace, made on first sight (loopback up); its name is what the nodes' interfaces move into. */
export async function ensureNamespace(ctx, networkId) {
  const { netns } = domainNames(ctx.netns, networkId);
  if (appliedCache(ctx).get(`netns ${netns}`)) return netns;
  if (!(await namespaceExists(ctx, netns))) {
    await rootOf(ctx).check(["ip", "netns", "add", netns]);
    await ctx.systemFor(netns).check(["ip", "link", "set", "dev", "lo", "up"]);
  }
  appliedCache(ctx).set(`netns ${netns}`, true);
  return netns;
}

/** Connected subnets of the host's addresses: a link subnet must not shadow any of them. */
async function hostSubnets(sys) {
  const links = JSON.parse(await sys.check(["ip", "-j", "address", "show"]));
  return links.flatMap((link) =>
    (link.addr_info ?? []).filter((info) => info.scope !== "link").map((info) => canonicalPrefix(`${info.local}/${info.prefixlen}`)),
  );
}

/**
 * Brings every served network's domain in line with its nodes' configs, and removes the domains of networks
 * no node here belongs to any more. Returns, per network, the egress destinations it was denied.
 * @param {import("./node-apply.mjs").NodeContext} ctx
 */
export async function syncDomains(ctx) {
  const domains = loadDomains(ctx.dir);
  const records = heldNodeIds(ctx.dir)
    .map((id) => loadNode(ctx.dir, id))
    .filter(Boolean);
  const served = new Set(records.map((record) => record.networkId));
  for (const networkId of Object.keys(domains).filter((id) => !served.has(id))) {
    await removeDomain(ctx, domains[networkId]);
    delete domains[networkId];
    saveDomains(ctx.dir, domains);
  }
  /** @type {Record<string, string[]>} */
  const wanted = {};
  /** @type {Record<string, string[]>} */
  const overlay = {};
  for (const record of records) {
    // A node without a config right now (a delta that did not fit: the next poll brings the whole config) keeps
    // its network's claims: a hiccup must not hand its LAN to another network waiting for it.
    const claims = record.config ? egressOf(record.config) : (domains[record.networkId]?.held ?? []);
    wanted[record.networkId] = [...(wanted[record.networkId] ?? []), ...claims];
    if (record.config) overlay[record.networkId] = [...(overlay[record.networkId] ?? []), canonicalPrefix(record.config.interface.address)];
  }
  const held = Object.fromEntries(Object.entries(domains).map(([id, domain]) => [id, domain.held]));
  const { granted, denied } = resolveEgressClaims(held, wanted);
  for (const networkId of [...served].sort()) {
    const names = domainNames(ctx.netns, networkId);
    const clash = Object.entries(domains).find(([id, domain]) => id !== networkId && domain.hostIf === names.hostIf);
    if (clash) throw new OperationError(`networks ${clash[0]} and ${networkId} hash to the same domain name ${names.netns}`);
    const domain = domains[networkId] ?? { ...names, link: await newLink(ctx, domains, networkId, overlay[networkId] ?? []), held: [] };
    domain.held = granted[networkId];
    const key = `link ${networkId}`;
    if (appliedCache(ctx).get(key) !== JSON.stringify(domain)) {
      await ensureNamespace(ctx, networkId);
      await syncLink(ctx, domain);
      appliedCache(ctx).set(key, JSON.stringify(domain));
    }
    domains[networkId] = domain;
    saveDomains(ctx.dir, domains);
  }
  const all = Object.values(domains);
  const script = replaceTable(HOST_TABLE, hostRuleset(all.map((d) => ({ hostIf: d.hostIf, granted: d.held }))));
  if (appliedCache(ctx).get("host") !== script) {
    await runNft(ctx.sys, ctx.dir, script);
    // The host forwards between the veths and its own interfaces; turned on when needed, never off (other uses).
    const families = new Set(all.flatMap((d) => d.held.map((p) => parsePrefix(p).family)));
    if (families.has(4)) await ctx.sys.check(["sysctl", "-q", "-w", "net.ipv4.ip_forward=1"]);
    if (families.has(6)) await ctx.sys.check(["sysctl", "-q", "-w", "net.ipv6.conf.all.forwarding=1"]);
    appliedCache(ctx).set("host", script);
  }
  return denied;
}

/** A new domain's link subnet: clear of the other domains', the host's own subnets and the network's overlay. */
async function newLink(ctx, domains, networkId, overlay) {
  const others = Object.entries(domains).filter(([id]) => id !== networkId);
  return chooseLinkSubnet(networkId, [...others.map(([, domain]) => domain.link.v4), ...(await hostSubnets(ctx.sys)), ...overlay]);
}

/** The veth pair, its addresses, the namespace's table and its routes to the granted destinations. */
async function syncLink(ctx, domain) {
  const host = ctx.sys;
  const inside = ctx.systemFor(domain.netns);
  if ((await host.run(["ip", "link", "show", "dev", domain.hostIf])).code !== 0) {
    await host.check(["ip", "link", "add", domain.hostIf, "type", "veth", "peer", "name", domain.nsIf, "netns", domain.netns]);
  }
  const v6 = domain.held.some((prefix) => parsePrefix(prefix).family === 6);
  if (v6) {
    // No duplicate address detection on a two-ended link: the addresses are usable at once.
    await host.check(["sysctl", "-q", "-w", `net.ipv6.conf.${domain.hostIf}.accept_dad=0`]);
    await inside.check(["sysctl", "-q", "-w", `net.ipv6.conf.${domain.nsIf}.accept_dad=0`]);
  }
  await syncAddresses(host, domain.hostIf, [domain.link.hostV4, ...(v6 ? [domain.link.hostV6] : [])]);
  await syncAddresses(inside, domain.nsIf, [domain.link.nsV4, ...(v6 ? [domain.link.nsV6] : [])]);
  await host.check(["ip", "link", "set", "dev", domain.hostIf, "up"]);
  await inside.check(["ip", "link", "set", "dev", domain.nsIf, "up"]);
  await runNft(inside, ctx.dir, replaceTable(DOMAIN_TABLE, domainRuleset(domain.nsIf)));
  await syncEgressRoutes(inside, domain);
}

/** Routes in the namespace: each granted destination via the host end of the link, nothing else on the veth. */
async function syncEgressRoutes(sys, domain) {
  for (const [flag, family, via] of [
    ["-4", 4, domain.link.hostV4.split("/")[0]],
    ["-6", 6, domain.link.hostV6.split("/")[0]],
  ]) {
    const listed = JSON.parse((await sys.check(["ip", "-j", flag, "route", "show", "dev", domain.nsIf])) || "[]");
    const current = listed
      .filter((route) => route.protocol !== "kernel" && !String(route.dst).startsWith("fe80:") && !String(route.dst).startsWith("ff00:"))
      .map((route) => canonicalPrefix(route.dst, family));
    const desired = domain.held.filter((prefix) => parsePrefix(prefix).family === family);
    for (const stale of current.filter((route) => !desired.includes(route))) {
      await sys.check(["ip", flag, "route", "del", stale, "dev", domain.nsIf]);
    }
    for (const missing of desired.filter((route) => !current.includes(route))) {
      await sys.check(["ip", flag, "route", "replace", missing, "via", via, "dev", domain.nsIf]);
    }
  }
}

/** Deleting the namespace takes its veth end (and so the pair) with it; the host end is deleted too, at once. */
async function removeDomain(ctx, domain) {
  for (const key of [...appliedCache(ctx).keys()])
    if (key === `netns ${domain.netns}` || key.startsWith("link ")) appliedCache(ctx).delete(key);
  await ctx.sys.run(["ip", "link", "del", "dev", domain.hostIf]);
  if (await namespaceExists(ctx, domain.netns)) await rootOf(ctx).check(["ip", "netns", "del", domain.netns]);
}

/** Everything this host set up for the domains: namespaces, veths, the host's table (`wgo gateway down`). */
export async function removeAllDomains(ctx) {
  const domains = loadDomains(ctx.dir);
  for (const domain of Object.values(domains)) await removeDomain(ctx, domain);
  await ctx.sys.run(["nft", "delete", "table", "inet", HOST_TABLE]);
  saveDomains(ctx.dir, {});
  return Object.values(domains).map((domain) => domain.netns);
}
