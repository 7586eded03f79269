// The NAT lab's own check, with no control plane: hand-run wireguard-go on the two laptops, each configured
// with the other's NAT address (router WAN, port 51820) and a keepalive, the way the server configures a NAT
// pair. Behind two port-preserving NATs both sides' packets open their own router's mapping and the next one
// from the far side passes it (simultaneous open): a handshake. With one fully-random NAT the far side's
// packets arrive from a port nobody was told, no mapping matches, and no handshake ever happens. The NAT
// e2e files rely on exactly this behaviour; if it changes (kernel, nftables), this file says so first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/command.ts";
import { cleanupAndFindLeftovers } from "../support/lab-leftovers.ts";
import { watchPing } from "../gateway/ping-watch.ts";
import { wgKeyPair } from "../support/netns.ts";
import { outageAround } from "./outage.ts";
import { canRunNatLab, createNatLab, type Home, type NatLab } from "./nat-lab.ts";

const natLab = canRunNatLab();
if (!natLab.ok) console.warn(`\n!!! SKIPPING the NAT lab check: ${natLab.reason} !!!\n`);

const PORT = 51820;
const OVERLAY = ["10.28.0.1", "10.28.0.2"] as const;

describe.skipIf(!natLab.ok)("the NAT lab with plain wireguard-go", () => {
  let lab: NatLab;
  beforeAll(async () => {
    lab = await createNatLab("natcheck", ["port-preserving", "port-preserving"]);
  });
  afterAll(async () => {
    await lab?.cleanup();
  });

  /** Both laptops on a fresh interface `ifname` with fresh keys, each aimed at the other's router. */
  async function startPair(ifname: string) {
    const keys = [await wgKeyPair(), await wgKeyPair()];
    for (const [index, home] of lab.homes.entries()) {
      const other = lab.homes[1 - index]!;
      await home.laptop.startWireGuard(
        ifname,
        `
[Interface]
PrivateKey = REPLACE_WITH_PRIVATE_KEY
Address = ${OVERLAY[index]}/24
ListenPort = ${PORT}

[Peer]
PublicKey = ${keys[1 - index]!.publicKey}
Endpoint = ${other.wanAddress}:${PORT}
AllowedIPs = ${OVERLAY[1 - index]}/32
PersistentKeepalive = 25
`,
        keys[index]!.privateKey,
      );
    }
  }

  const mappings = async () =>
    (await Promise.all(lab.homes.map(async (home, i) => `## r${i + 1} (${home.mode})\n${await lab.udpMappings(home)}`))).join("\n");

  it("behind two port-preserving NATs: a handshake, each side sees the other's router WAN address and port", async () => {
    const started = Date.now();
    await startPair("wg0");
    const [l1, l2] = lab.homes.map((home: Home) => home.laptop) as [Home["laptop"], Home["laptop"]];
    const reached = await l1.pingUntilReply(OVERLAY[1], 20_000);
    console.log(`NAT lab, port-preserving x2: first reply ${Date.now() - started} ms after the interfaces came up\n${await mappings()}`);
    expect(reached, await mappings()).toBe(true);
    expect(await l2.ping(OVERLAY[0], 3)).toBe(true);
    // The NAT kept the laptops' port: each side's endpoint is the other's router at 51820.
    const [peerOf1] = await l1.wgDump("wg0");
    const [peerOf2] = await l2.wgDump("wg0");
    expect(peerOf1!.endpoint).toBe(`${lab.homes[1].wanAddress}:${PORT}`);
    expect(peerOf2!.endpoint).toBe(`${lab.homes[0].wanAddress}:${PORT}`);
    expect(peerOf1!.latestHandshake).toBeGreaterThan(0);
  });

  it("after a conntrack flush on r1, l2's traffic gets through again once l1 sends (its keepalive at the latest)", async () => {
    const [l1, l2] = [lab.homes[0].laptop, lab.homes[1].laptop];
    const pings = watchPing(l2.namespace, OVERLAY[0]);
    try {
      await waitFor("l2's pings to l1 to be answered", () => pings.replies().length >= 3, { timeoutMs: 10_000 });
      const outage = await outageAround(pings, () => lab.flushConntrack(lab.homes[0]), 60_000);
      console.log(`NAT lab, conntrack -F on r1 with traffic only from l2: replies stopped for ${outage} ms (keepalive 25 s)`);
      expect(outage, await mappings()).not.toBeNull();
      // Nothing from l2 passes r1 until l1 sends: its persistent keepalive (25 s after its last packet) or sooner.
      expect(outage!).toBeLessThan(30_000);
      expect(await l1.ping(OVERLAY[1], 2)).toBe(true);
    } finally {
      pings.stop();
    }
  });

  it("with one fully-random NAT: no handshake in 15 s, and that router maps the port elsewhere", async () => {
    for (const home of lab.homes) await home.laptop.exec(["ip", "link", "del", "wg0"]);
    await lab.setNat(lab.homes[1], "fully-random");
    for (const home of lab.homes) await lab.flushConntrack(home);
    await startPair("wg1");
    const [l1, l2] = [lab.homes[0].laptop, lab.homes[1].laptop];
    expect(await l1.pingUntilReply(OVERLAY[1], 15_000), "no reply through a symmetric NAT").toBe(false);
    const [peerOf1] = await l1.wgDump("wg1");
    const [peerOf2] = await l2.wgDump("wg1");
    expect(peerOf1!.latestHandshake, await mappings()).toBe(0);
    expect(peerOf2!.latestHandshake, await mappings()).toBe(0);
    // r2 sent l2's packets out from some port other than 51820 (the laptop's own).
    const r2 = await lab.udpMappings(lab.homes[1]);
    console.log(`NAT lab, port-preserving + fully-random: no handshake\n${await mappings()}`);
    const outbound = r2.split("\n").find((line) => line.includes(`src=${lab.homes[1].laptopAddress}`) && line.includes(`sport=${PORT}`));
    expect(outbound, r2).toBeDefined();
    const replyPort = /dport=(\d+)\s*(\[|mark|use|$)/.exec(outbound!.split(`dst=${lab.homes[1].wanAddress}`)[1] ?? "")?.[1];
    expect(Number(replyPort), outbound).not.toBe(PORT);
  });

  it("leaves no namespace or wireguard-go behind", async () => {
    expect(await cleanupAndFindLeftovers(lab.lab)).toEqual({ namespaces: [], processes: [] });
  });
});
