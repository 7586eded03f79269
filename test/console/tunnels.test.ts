import { describe, expect, it } from "vitest";
import { ago, bytes } from "../../src/console/format";
import { api } from "../helpers/api";
import { createUser, enrolDevice, type Enrolled, networkSetup, signInAdmin } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

const PASSWORD = "a long enough password";

/** A device's node always has its key (only gateway nodes wait for one). */
const keyOf = (device: Enrolled) => device.body.node.publicKey ?? "";

async function report(from: Enrolled, peers: { publicKey: string; lastHandshakeAt: string | null; rxBytes: number; txBytes: number }[]) {
  const beat = await api(from.deviceToken).POST("/api/v1/client/devices/{id}/heartbeat", {
    params: { path: { id: from.deviceId } },
    body: { appliedRevision: null, peers },
  });
  expect(beat.response.status).toBe(200);
}

describe("console tunnels", { timeout: 30_000 }, () => {
  it("shows reported tunnels with handshake age and human byte counts, filtered by network, to a group admin (not to a viewer)", async () => {
    const { admin, network, as } = await networkSetup({ owner: "user" });
    const other = await networkSetup();
    const [a, b, c] = [
      await enrolDevice(admin, { networkId: network.id }),
      await enrolDevice(admin, { networkId: network.id }),
      await enrolDevice(admin, { networkId: network.id }),
    ];
    const elsewhere = [
      await enrolDevice(admin, { networkId: other.network.id }),
      await enrolDevice(admin, { networkId: other.network.id }),
    ];
    const handshake = new Date(Date.now() - 42_000).toISOString();
    await report(a, [
      { publicKey: keyOf(b), lastHandshakeAt: handshake, rxBytes: 1536, txBytes: 5 * 1024 * 1024 },
      { publicKey: keyOf(c), lastHandshakeAt: null, rxBytes: 0, txBytes: 0 },
    ]);
    await report(elsewhere[0]!, [{ publicKey: keyOf(elsewhere[1]!), lastHandshakeAt: null, rxBytes: 7, txBytes: 7 }]);

    // Tunnels that devices report are their owners' detail (docs/security.md, "Device nodes"): a viewer sees none.
    const viewer = await as("viewer");
    const viewers = await (await signedInAgent(viewer.email, PASSWORD)).get(`/tunnels?network=${network.id}`);
    expect(viewers.status).toBe(200);
    expect(viewers.text).not.toContain(b.body.node.name);
    const groupAdmin = await as("admin");
    const agent = await signedInAgent(groupAdmin.email, PASSWORD);
    const page = await agent.get(`/tunnels?network=${network.id}`);
    expect(page.status).toBe(200);
    const rows = page.text.split("<tr>").slice(2);
    expect(rows).toHaveLength(2);
    const toB = rows.find((row) => row.includes(`${a.body.node.name} and ${b.body.node.name}`)) ?? "";
    expect(toB).toMatch(/<td>4\d s ago<\/td>/);
    expect(toB).toContain("<td>1.50 KiB</td>");
    expect(toB).toContain("<td>5.00 MiB</td>");
    const toC = rows.find((row) => row.includes(`${a.body.node.name} and ${c.body.node.name}`)) ?? "";
    expect(toC).toContain("<td>never</td>");
    expect(toC).toContain("<td>0 B</td>");
    expect(page.text).not.toContain(elsewhere[0]!.body.node.name);
    expect(page.text).not.toMatch(/<form method="post" action="\/(?!sign-out)/);
  });

  it("searches tunnels by either end's name or the network's, keeping the network filter", async () => {
    const { admin, network } = await networkSetup();
    const [a, b, c] = [
      await enrolDevice(admin, { networkId: network.id, name: "tun-laptop-a" }),
      await enrolDevice(admin, { networkId: network.id, name: "tun-server-b" }),
      await enrolDevice(admin, { networkId: network.id, name: "tun-phone-c" }),
    ];
    await report(a, [{ publicKey: keyOf(b), lastHandshakeAt: null, rxBytes: 1, txBytes: 1 }]);
    await report(c, [{ publicKey: keyOf(a), lastHandshakeAt: null, rxBytes: 1, txBytes: 1 }]);
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const rowsOf = (text: string) => text.split("<tr>").slice(2);
    // "server" is only B's name: the one tunnel that leads to it.
    const found = await agent.get(`/tunnels?network=${network.id}&q=SERVER`);
    expect(found.status).toBe(200);
    expect(rowsOf(found.text)).toHaveLength(1);
    expect(found.text).toContain("tun-laptop-a and tun-server-b");
    expect(found.text).toMatch(/1 item matching “SERVER” among \d+ searched/);
    expect(found.text).toContain(`name="network" value="${network.id}"`);
    // "laptop" is an end of both.
    expect(rowsOf((await agent.get(`/tunnels?network=${network.id}&q=laptop`)).text)).toHaveLength(2);
    const none = await agent.get(`/tunnels?network=${network.id}&q=nobody-here`);
    expect(none.text).toContain("No tunnel matches");
  });

  it("shows a tunnel both ends report as one row: the freshest report's figures and its age", async () => {
    const { admin, network } = await networkSetup();
    const [laptop, gateway] = [
      await enrolDevice(admin, { networkId: network.id, name: "pair-laptop" }),
      await enrolDevice(admin, { networkId: network.id, name: "pair-gw" }),
    ];
    const old = new Date(Date.now() - 600_000).toISOString();
    await report(laptop, [{ publicKey: keyOf(gateway), lastHandshakeAt: old, rxBytes: 1024, txBytes: 1024 }]);
    await report(gateway, [
      { publicKey: keyOf(laptop), lastHandshakeAt: new Date().toISOString(), rxBytes: 3 * 1024 * 1024, txBytes: 2048 },
    ]);
    const page = await (await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password)).get(`/tunnels?network=${network.id}`);
    const rows = page.text.split("<tr>").slice(2).map(textOf);
    expect(rows, "one row for the pair, not one per end").toHaveLength(1);
    expect(rows[0]).toMatch(
      /^pair-gw and pair-laptop .* up (just now|\d s ago) 3.00 MiB 2.00 KiB (just now|\d s ago), by pair-gw \(its other end's report: /,
    );
    expect(rows[0]).not.toContain("1.00 KiB");
  });

  it("says when there is nothing reported yet", async () => {
    const user = await createUser(await signInAdmin());
    const page = await (await signedInAgent(user.email, PASSWORD)).get("/tunnels");
    expect(page.status).toBe(200);
    expect(page.text).toContain("No tunnels reported yet");
  });

  it("writes ages and sizes for people", () => {
    const now = Date.parse("2026-07-02T12:00:00Z");
    expect(ago(null, now)).toBe("never");
    expect(ago("2026-07-02T11:59:18Z", now)).toBe("42 s ago");
    expect(ago("2026-07-02T11:55:00Z", now)).toBe("5 min ago");
    expect(ago("2026-06-30T12:00:00Z", now)).toBe("2 d ago");
    expect(bytes(512)).toBe("512 B");
    expect(bytes(1024 * 1024 * 1024 * 3.2)).toBe("3.20 GiB");
    expect(bytes(150 * 1024)).toBe("150 KiB");
  });
});
