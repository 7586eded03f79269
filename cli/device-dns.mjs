// A device's DNS across `up`, `heartbeat --apply` and `down`: applied after the interface is up,
// re-applied only when the servers or search domains changed (or the interface is new), and removed at
// `down`. The record in the device file says what was applied where, so nothing is undone twice.
import { applyDns, removeDns, resolverPaths } from "./resolver.mjs";

/** @typedef {import("./resolver.mjs").DnsRecord} DnsRecord */

/**
 * @param {any} ctx the command context (createSystem, env, note)
 * @param {{ device: import("./device-state.mjs").Device & { dns?: DnsRecord | null }, ifname: string,
 *   netns?: string, sys: import("./system.mjs").System }} place
 * @param {{ method: string, action: string, plan: import("./wg-quick-text.mjs").WgQuickPlan }} applied
 * @returns {Promise<{ record: DnsRecord | null, changed: boolean }>} the device's record (not yet saved)
 */
export async function syncDeviceDns(ctx, place, { method, action, plan }) {
  const previous = place.device.dns ?? null;
  const netns = place.netns ?? null;
  const servers = plan.dns;
  const search = servers.length ? plan.dnsSearch : [];
  if (plan.dnsSearch.length && !servers.length) ctx.note(`DNS search ${plan.dnsSearch.join(", ")} without a server: not applied`);
  const sameTarget =
    previous?.interface === place.ifname && previous.netns === netns && (previous.via === "wg-quick") === (method === "wg-quick");
  const sameValues = sameTarget && same(previous.servers, servers) && same(previous.search, search);
  // resolved forgets a deleted link's settings, so a new interface is always applied, even unchanged.
  if (sameValues && action !== "created") return { record: previous, changed: false };
  if (method === "wg-quick") {
    // wg-quick sets DNS itself (through resolvconf) when it brings the interface up, and only then.
    if (action !== "created") {
      ctx.note(`DNS changed to ${servers.join(", ") || "none"}: wg-quick applies it at the next \`wgo down\` and \`wgo up\``);
      return { record: previous, changed: false };
    }
    if (previous) await undo(ctx, previous); // left by an interface that went away without `wgo down`
    return { record: servers.length ? { servers, search, via: "wg-quick", interface: place.ifname, netns } : null, changed: true };
  }
  if (previous && (!sameTarget || !servers.length)) await undo(ctx, previous);
  if (!servers.length) return { record: null, changed: previous !== null };
  const { record, notes } = await applyDns({
    sys: place.sys,
    ifname: place.ifname,
    netns,
    servers,
    search,
    previous: sameTarget ? previous : null,
    paths: resolverPaths(ctx.env),
  });
  for (const note of notes) ctx.note(note);
  return { record, changed: true };
}

/** `down`: undoes the device's record (wg-quick's own is undone by `wg-quick down`). @returns the way it was applied */
export async function removeDeviceDns(ctx, device) {
  const record = device.dns ?? null;
  if (!record) return null;
  if (record.via !== "wg-quick") await undo(ctx, record);
  return record.via;
}

/** Undone where it was applied, which need not be where the interface is now. */
async function undo(ctx, record) {
  const sys = ctx.createSystem({ netns: record.netns ?? undefined, env: ctx.env });
  for (const note of await removeDns({ sys, record })) ctx.note(note);
}

/** The part of a record `up` reports. */
export function dnsSummary(record) {
  return record ? { servers: record.servers, search: record.search, via: record.via } : null;
}

export function describeDns(record) {
  if (!record) return "";
  const search = record.search.length ? ` (search ${record.search.join(", ")})` : "";
  const via = record.via === "none" ? "not applied" : `via ${record.via}`;
  return `, DNS ${record.servers.join(", ")}${search} ${via}`;
}

const same = (a, b) => a.length === b.length && a.every((value, index) => value === b[index]);
