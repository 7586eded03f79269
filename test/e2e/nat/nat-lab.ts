// The NAT lab of issue 28: a small internet and two homes behind NAT routers, all network namespaces.
//
//   relay 198.51.100.2 ─┐                         ┌─ router r1 WAN 198.51.100.66 ── LAN 192.168.1.0/24 ── laptop l1 .2
//   api   198.51.100.3 ─┼─ internet (routes only) ┤
//                       │  .1 / .65 / .129        └─ router r2 WAN 198.51.100.130 ─ LAN 192.168.1.0/24 ── laptop l2 .2
//
// Both homes use the same LAN prefix, as real homes do: a LAN endpoint is only ever good inside its own home.
// The routers are what a home router is: masquerade out of the WAN, and nothing from the WAN gets in (to the
// router or the LAN) unless conntrack says it answers something sent out. No port forwarding. Dropping the
// unsolicited packets in a filter chain also keeps them from leaving a conntrack entry (entries are confirmed
// only when a packet survives the hooks), which would otherwise block the later outbound mapping of that port.
//   - "port-preserving": `masquerade`; Linux keeps the source port whenever the tuple is free, so a laptop's
//     socket maps to the same WAN port towards every peer (what most home routers do).
//   - "fully-random": `masquerade fully-random`; a new random port per destination (a symmetric NAT).
import { spawnSync } from "node:child_process";
import { check } from "../support/command.ts";
import { canRunDataPlane, createLab, type Host, type Lab } from "../support/netns.ts";

export type NatMode = "port-preserving" | "fully-random";

export interface Home {
  readonly router: Host;
  readonly laptop: Host;
  /** The router's public address: what the rest of the internet sees the laptop as. */
  readonly wanAddress: string;
  readonly wanInterface: string;
  readonly laptopAddress: string;
  /** A second laptop on the same LAN (192.168.1.3), when the lab was asked for one in this home. */
  readonly neighbour?: Host;
  mode: NatMode;
}

export interface NatLab {
  readonly lab: Lab;
  readonly internet: Host;
  /** Where the relay gateway's agent (`wgo gateway run --netns`) puts its node; its UDP port is reachable. */
  readonly relay: Host;
  readonly relayAddress: string;
  /** The host the API is served from on the internet (edge-proxy.ts). */
  readonly api: Host;
  readonly apiAddress: string;
  readonly homes: readonly [Home, Home];
  /** Replaces a home's NAT rules (the mappings already in conntrack stay until flushed). */
  setNat(home: Home, mode: NatMode): Promise<void>;
  /** `conntrack -F` on the router: every mapping is forgotten, as when a home router reboots. */
  flushConntrack(home: Home): Promise<void>;
  /** The router's UDP mappings, as `conntrack -L -p udp` prints them (for logs and failure messages). */
  udpMappings(home: Home): Promise<string>;
  cleanup(): Promise<void>;
}

export const LAN_PREFIX = "192.168.1.0/24";

/** `neighbour`: home 1 gets a second laptop beside the first (both then share its public address). */
export async function createNatLab(prefix: string, modes: readonly [NatMode, NatMode], { neighbour = false } = {}): Promise<NatLab> {
  const lab = createLab(prefix);
  try {
    return await build(lab, modes, neighbour);
  } catch (error) {
    await lab.cleanup();
    throw error;
  }
}

async function build(lab: Lab, modes: readonly [NatMode, NatMode], withNeighbour: boolean): Promise<NatLab> {
  const internet = await lab.addHost("inet");
  const relay = await lab.addHost("relay");
  const api = await lab.addHost("api");
  await sysctl(internet, "net.ipv4.ip_forward=1");
  const [core, relayAddress, apiAddress] = (await lab.connect([internet, relay, api], "198.51.100.0/26")) as [string, string, string];
  for (const host of [relay, api]) await host.exec(["ip", "route", "add", "default", "via", core]);

  const homes: Home[] = [];
  for (const [index, mode] of modes.entries()) {
    const router = await lab.addHost(`r${index + 1}`);
    const laptop = await lab.addHost(`l${index + 1}`);
    const [upstream, wanAddress] = (await lab.connect([internet, router], `198.51.100.${64 * (index + 1)}/26`)) as [string, string];
    const neighbour = withNeighbour && index === 0 ? await lab.addHost("l3") : undefined;
    const lan = [router, laptop, ...(neighbour ? [neighbour] : [])];
    const [lanGateway, laptopAddress] = (await lab.connect(lan, LAN_PREFIX)) as [string, string];
    await router.exec(["ip", "route", "add", "default", "via", upstream]);
    for (const host of lan.slice(1)) await host.exec(["ip", "route", "add", "default", "via", lanGateway]);
    await sysctl(router, "net.ipv4.ip_forward=1");
    const wanInterface = await interfaceWith(router, wanAddress);
    const home: Home = { router, laptop, wanAddress, wanInterface, laptopAddress, neighbour, mode };
    await applyNat(home, mode);
    homes.push(home);
  }

  return {
    lab,
    internet,
    relay,
    relayAddress,
    api,
    apiAddress,
    homes: homes as [Home, Home],
    setNat: (home, mode) => applyNat(home, mode),
    flushConntrack: async (home) => {
      await home.router.exec(["conntrack", "-F"]);
    },
    udpMappings: async (home) => {
      const listed = await home.router.run(["conntrack", "-L", "-p", "udp"]);
      return listed.stdout.trim() || "(none)";
    },
    cleanup: () => lab.cleanup(),
  };
}

/** One table holds the router's whole behaviour, so replacing it changes the NAT mode atomically. */
async function applyNat(home: Home, mode: NatMode): Promise<void> {
  const wan = home.wanInterface;
  const masquerade = mode === "fully-random" ? "masquerade fully-random" : "masquerade";
  const ruleset = `
table inet home_router
delete table inet home_router
table inet home_router {
  chain input {
    type filter hook input priority filter; policy accept;
    iifname "${wan}" ct state established,related accept
    iifname "${wan}" drop
  }
  chain forward {
    type filter hook forward priority filter; policy accept;
    iifname "${wan}" ct state established,related accept
    iifname "${wan}" drop
  }
  chain postrouting {
    type nat hook postrouting priority srcnat; policy accept;
    oifname "${wan}" ${masquerade}
  }
}
`;
  await check(home.router.argv(["nft", "-f", "-"]), { input: ruleset });
  home.mode = mode;
}

async function interfaceWith(host: Host, address: string): Promise<string> {
  const links = JSON.parse(await host.exec(["ip", "-j", "-4", "address", "show"])) as Array<{
    ifname: string;
    addr_info: Array<{ local: string }>;
  }>;
  const link = links.find((l) => l.addr_info.some((info) => info.local === address));
  if (!link) throw new Error(`${host.name} has no interface with ${address}`);
  return link.ifname;
}

async function sysctl(host: Host, setting: string): Promise<void> {
  await host.exec(["sysctl", "-q", "-w", setting]);
}

/** What the NAT lab needs beyond canRunDataPlane's list: the routers' nftables and conntrack. */
export function canRunNatLab(): { ok: boolean; reason: string } {
  const dataPlane = canRunDataPlane();
  if (!dataPlane.ok) return dataPlane;
  const missing = ["nft", "conntrack"].filter((binary) => spawnSync("sh", ["-c", `command -v ${binary}`]).status !== 0);
  if (missing.length) return { ok: false, reason: `missing binaries: ${missing.join(", ")} (apt: nftables, conntrack)` };
  return { ok: true, reason: "root, wireguard-go, nft and conntrack present" };
}
