// Issue 28 red team: one device that never answers direct handshakes (a malicious one dropping them, or one
// behind a symmetric NAT) strands its pair with every NAT'd node of the network at once. Each move is a routing
// change every node of the network follows: the moves of one check are one revision, not one per pair.
import { describe, expect, it } from "vitest";
import { enrolDevice, type Enrolled } from "../helpers/factories";
import { auditRoutes, checkAt, configOf, daemonReport, heartbeat, keyOf, natNetwork, peerIn, revisionOf } from "./nat-lab";

const HONEST = 8;

describe("a device stranded with every peer", () => {
  it("moves all its pairs onto the relay in one routing revision, each move audited", async () => {
    const { admin, network, relay, a: mute } = await natNetwork();
    const honest: Enrolled[] = [];
    for (let i = 0; i < HONEST; i++) honest.push(await enrolDevice(admin, { networkId: network.id, name: `laptop-${i}` }));
    const all = [mute, ...honest.slice(1)];
    // The relay saw each one after its NAT (one honest laptop never reported: it stays out of every pair).
    await daemonReport(
      relay,
      await revisionOf(network.id, admin.token),
      all.map((device, i) => ({ publicKey: keyOf(device), handshakeAt: Date.now(), endpoint: `198.51.100.${100 + i}:40000` })),
    );
    const revision = await revisionOf(network.id, admin.token);
    const toRelay = { publicKey: relay.node.publicKey, handshakeAt: Date.now(), endpoint: "198.51.100.50:51820" };
    // Honest laptops reach each other directly; nobody reaches the mute one, which reaches nobody.
    for (const device of all) {
      const others = device === mute ? [] : all.filter((other) => other !== device && other !== mute);
      await heartbeat(device, revision, [toRelay, ...others.map((other) => ({ publicKey: keyOf(other), handshakeAt: Date.now() }))]);
    }
    const checked = await checkAt(network.id, Date.now() + 21_000);
    expect(checked.moves).toHaveLength(all.length - 1);
    // One routing change for the lot; an audit row for each pair.
    expect(await revisionOf(network.id, admin.token)).toBe(revision + 1);
    expect((await auditRoutes(network.id)).filter((row) => row.route === "nat.pair-relayed")).toHaveLength(all.length - 1);
    for (const device of all.slice(1)) {
      expect(peerIn(await configOf(device.nodeId, admin.token), mute.nodeId)?.allowedIps).toEqual([]);
      expect(peerIn(await configOf(device.nodeId, admin.token), relay.node.id)?.allowedIps).toContain(`${mute.address}/32`);
    }
  });
});
