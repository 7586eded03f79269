// Proves the data-plane harness on this machine: two namespaces with hand-written wg-quick configs
// reach each other over wireguard-go, and the transfer counters move.
import { afterAll, describe, expect, it } from "vitest";
import { cleanupAndFindLeftovers } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, wgKeyPair, type Lab } from "../support/netns.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING wireguard pair smoke test: ${dataPlane.reason} !!!\n`);

describe.skipIf(!dataPlane.ok)("wireguard-go between two namespaces", () => {
  let lab: Lab | undefined;
  afterAll(async () => {
    await lab?.cleanup(); // a failed test still leaves nothing behind
  });

  it("pings both ways over the overlay and counts the bytes", async () => {
    lab = createLab("smokepair");
    const a = await lab.addHost("a");
    const b = await lab.addHost("b");
    const [underlayA, underlayB] = await lab.connect([a, b], "10.250.1.0/24");
    const keysA = await wgKeyPair();
    const keysB = await wgKeyPair();

    // A /24 on the interface: its connected route already covers the peer, so no extra route.
    await a.startWireGuard(
      "wg0",
      `
[Interface]
PrivateKey = REPLACE_WITH_PRIVATE_KEY
Address = 10.99.0.1/24
ListenPort = 51820

[Peer]
PublicKey = ${keysB.publicKey}
Endpoint = ${underlayB}:51820
AllowedIPs = 10.99.0.2/32
`,
      keysA.privateKey,
    );
    await b.startWireGuard(
      "wg0",
      `
[Interface]
PrivateKey = REPLACE_WITH_PRIVATE_KEY
Address = 10.99.0.2/24
ListenPort = 51820

[Peer]
PublicKey = ${keysA.publicKey}
Endpoint = ${underlayA}:51820
AllowedIPs = 10.99.0.1/32
`,
      keysB.privateKey,
    );

    // First contact waits for the handshake; once the session is up a short ping must do.
    expect(await a.pingUntilReply("10.99.0.2")).toBe(true);
    expect(await b.ping("10.99.0.1", 3)).toBe(true);

    const [peerB] = await a.wgDump("wg0");
    expect(peerB).toMatchObject({ publicKey: keysB.publicKey, endpoint: `${underlayB}:51820`, allowedIps: ["10.99.0.2/32"] });
    expect(peerB!.latestHandshake).toBeGreaterThan(0);
    expect(peerB!.rxBytes).toBeGreaterThan(0);
    expect(peerB!.txBytes).toBeGreaterThan(0);
    const [peerA] = await b.wgDump("wg0");
    expect(peerA!.publicKey).toBe(keysA.publicKey);
    expect(peerA!.rxBytes).toBeGreaterThan(0);
  });

  it("leaves no namespace or wireguard-go behind", async () => {
    expect(lab, "the first test created the lab").toBeDefined();
    expect(await cleanupAndFindLeftovers(lab!)).toEqual({ namespaces: [], processes: [] });
  });
});
