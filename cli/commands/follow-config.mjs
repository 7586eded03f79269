// `heartbeat --apply`'s answer to configChanged. With a held config it asks only for what changed since
// that revision (delta sync: a one-peer change costs a few hundred bytes, not the whole network) and
// applies the delta with `wg set`; otherwise, or when the delta cannot be used, the full config and
// `wg syncconf` as before.
import { enforceAccess } from "../access-filter.mjs";
import { applyConfigDelta, deltaBase } from "../config-delta.mjs";
import { dnsSummary } from "../device-dns.mjs";
import { fetchConfigOrDelta, heldConfig, readPrivateKey, saveDevice, storeConfig } from "../device-state.mjs";
import { paths, writeSecretFile } from "../files.mjs";
import { withListenPort } from "../listen-port.mjs";
import { applyPeerCommands, peerCommands } from "../peer-delta.mjs";
import { fillPrivateKey, wgQuickFile } from "../wg-quick-text.mjs";
import { applyAndRecord } from "./link.mjs";

/**
 * @returns {Promise<{ fetched: Array<{ answer: "delta" | "config", bytes: number }>, applied: object | null }>}
 *   what each config request answered, and what was applied (null when the interface is not up)
 */
export async function followConfigChange(ctx, place, up) {
  const device = place.device;
  const held = deltaBase(heldConfig(ctx.home, device.name));
  const first = await fetchConfigOrDelta(ctx, device, held?.routingRevision);
  /** @type {Array<{ answer: "delta" | "config", bytes: number }>} */
  const fetched = [{ answer: first.delta ? "delta" : "config", bytes: first.bytes }];
  if (!first.delta) return { fetched, applied: await followFull(ctx, place, up, first.config) };
  try {
    return { fetched, applied: await followDelta(ctx, place, up, held, first.delta) };
  } catch (error) {
    // Whatever went wrong (a delta from elsewhere, a `wg set` refused half-way), the full config
    // applied with syncconf puts file and interface right again.
    ctx.note(`the delta was not applied (${error instanceof Error ? error.message : error}): fetching the full config`);
  }
  const full = await fetchConfigOrDelta(ctx, device, undefined);
  fetched.push({ answer: "config", bytes: full.bytes });
  return { fetched, applied: await followFull(ctx, place, up, full.config) };
}

async function followFull(ctx, place, up, config) {
  const text = storeConfig(ctx.home, place.device, config);
  if (!up) return notUp(ctx, place);
  const result = await applyAndRecord(ctx, place, text, place.device.method ?? "auto");
  return { revision: place.device.appliedRevision, action: result.action, routes: result.routes, ...dnsChange(result) };
}

async function followDelta(ctx, place, up, held, delta) {
  const { device, ifname, sys } = place;
  const next = applyConfigDelta(held, delta);
  const counts = { peersUpserted: delta.peersUpserted.length, peersRemoved: delta.peersRemoved.length };
  if (!up) {
    storeConfig(ctx.home, device, next);
    return notUp(ctx, place);
  }
  // `wg set` edits what runs; that must be the held config, or the result would be neither revision.
  const plan =
    device.appliedRevision === held.routingRevision
      ? peerCommands(ifname, held, delta)
      : { reason: `${ifname} runs revision ${device.appliedRevision}, not the held ${held.routingRevision}` };
  if (!("commands" in plan)) {
    ctx.note(`revision ${next.routingRevision} applied with wg syncconf: ${plan.reason}`);
    const result = await applyAndRecord(ctx, place, storeConfig(ctx.home, device, next), device.method ?? "auto");
    return { revision: device.appliedRevision, action: result.action, routes: result.routes, ...counts, ...dnsChange(result) };
  }
  const text = fillPrivateKey(next.wgQuick, readPrivateKey(ctx.home, device.name));
  const routes = await applyPeerCommands({
    sys,
    ifname,
    commands: plan.commands,
    text,
    forwardingTurnedOn: delta.forwarding === true,
  });
  // Policy mode: the filters follow the delta too (a rule added, expired or removed; open mode drops them).
  device.accessFilter = await enforceAccess(sys, ctx.home, ifname, next, device.accessFilter === true);
  // Files only once the interface took it: a failure above leaves the held revision to retry from.
  storeConfig(ctx.home, device, next);
  // For `wg-quick down`, as applyAndRecord wrote it: with the port the device keeps (a delta leaves it running).
  if (device.method === "wg-quick") writeSecretFile(paths.wgQuick(ctx.home, ifname), wgQuickFile(withListenPort(text, device.listenPort)));
  device.appliedRevision = next.routingRevision;
  saveDevice(ctx.home, device);
  return { revision: next.routingRevision, action: "delta", routes, ...counts };
}

/** `dns` only when this apply changed it (null: removed), so a beat's report says what it did. */
const dnsChange = (result) => (result.dnsChanged ? { dns: dnsSummary(result.dns) } : {});

function notUp(ctx, { device, ifname }) {
  ctx.note(`fetched revision ${device.configRevision}, but ${ifname} is not up: run \`wgo up --name ${device.name}\``);
  return null;
}
