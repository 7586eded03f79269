// Proves a hop forwards with wireguard-go here, the shape every via_gateway policy relies on:
// A reaches a destination behind C only through B, on underlays that do not touch (A–B, B–C).
import { afterAll, describe, expect, it } from "vitest";
import { cleanupAndFindLeftovers, describeLab } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, wgKeyPair, type Lab } from "../support/netns.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING wireguard forwarding chain smoke test: ${dataPlane.reason} !!!\n`);

const DESTINATION = "192.168.77.10";
const FORWARDING = "PostUp = sysctl -w net.ipv4.ip_forward=1";

describe.skipIf(!dataPlane.ok)("wireguard-go chain A - B - C with B forwarding", () => {
  let lab: Lab | undefined;
  afterAll(async () => {
    await lab?.cleanup();
  });

  it("carries A's traffic to a destination behind C through B, and the replies back", async () => {
    lab = createLab("smokechain");
    const [a, b, c] = [await lab.addHost("a"), await lab.addHost("b"), await lab.addHost("c")];
    const [underlayA, underlayBLeft] = await lab.connect([a, b], "10.250.1.0/24");
    const [underlayBRight, underlayC] = await lab.connect([b, c], "10.250.2.0/24");
    const destination = await c.addStandInDestination(`${DESTINATION}/24`);
    const [keysA, keysB, keysC] = [await wgKeyPair(), await wgKeyPair(), await wgKeyPair()];

    // /32 interface addresses: every AllowedIPs prefix needs its own route, as on real nodes.
    await a.startWireGuard(
      "wg0",
      `
[Interface]
PrivateKey = REPLACE_WITH_PRIVATE_KEY
Address = 10.99.0.1/32
ListenPort = 51820

[Peer]
PublicKey = ${keysB.publicKey}
Endpoint = ${underlayBLeft}:51820
AllowedIPs = 10.99.0.2/32, 192.168.77.0/24
`,
      keysA.privateKey,
    );
    const configB = (postUp: string) => `
[Interface]
PrivateKey = REPLACE_WITH_PRIVATE_KEY
Address = 10.99.0.2/32
ListenPort = 51820
${postUp}

[Peer]
PublicKey = ${keysA.publicKey}
Endpoint = ${underlayA}:51820
AllowedIPs = 10.99.0.1/32

[Peer]
PublicKey = ${keysC.publicKey}
Endpoint = ${underlayC}:51820
AllowedIPs = 10.99.0.3/32, 192.168.77.0/24
`;
    await b.startWireGuard("wg0", configB(""), keysB.privateKey);
    // C accepts A's address from B (cryptokey routing checks the inner source) and forwards to the stand-in.
    await c.startWireGuard(
      "wg0",
      `
[Interface]
PrivateKey = REPLACE_WITH_PRIVATE_KEY
Address = 10.99.0.3/32
ListenPort = 51820
${FORWARDING}

[Peer]
PublicKey = ${keysB.publicKey}
Endpoint = ${underlayBRight}:51820
AllowedIPs = 10.99.0.2/32, 10.99.0.1/32
`,
      keysC.privateKey,
    );

    expect(await a.exec(["ip", "route", "show", "dev", "wg0"])).toContain("192.168.77.0/24");
    expect(await a.ping(underlayC!, 1), "A must have no underlay path to C").toBe(false);
    // Control: without forwarding on B the destination is unreachable, so success below is B's doing.
    expect(await a.ping(DESTINATION, 2)).toBe(false);

    const plan = await b.reapplyWireGuard("wg0", configB(FORWARDING), keysB.privateKey);
    expect(plan.sysctls).toEqual(["net.ipv4.ip_forward=1"]);
    expect((await b.exec(["sysctl", "-n", "net.ipv4.ip_forward"])).trim()).toBe("1");

    const reached = await a.pingUntilReply(DESTINATION);
    expect(reached, reached ? "" : await describeLab(lab)).toBe(true);
    expect(await destination.ping("10.99.0.1", 3), "the stand-in reaches A back through C and B").toBe(true);

    const byKey = new Map((await b.wgDump("wg0")).map((peer) => [peer.publicKey, peer]));
    expect(byKey.get(keysA.publicKey)!.rxBytes, "B received from A").toBeGreaterThan(0);
    expect(byKey.get(keysC.publicKey)!.txBytes, "B sent on to C").toBeGreaterThan(0);
    expect(byKey.get(keysC.publicKey)!.rxBytes, "B got C's replies").toBeGreaterThan(0);
    const [peerBOfC] = await c.wgDump("wg0");
    expect(peerBOfC!.rxBytes).toBeGreaterThan(0);
  });

  it("leaves no namespace or wireguard-go behind", async () => {
    expect(lab, "the first test created the lab").toBeDefined();
    expect(await cleanupAndFindLeftovers(lab!)).toEqual({ namespaces: [], processes: [] });
  });
});
