import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createUser, enrolDevice, expectStatus, networkSetup, signInAdmin } from "../helpers/factories";
import { signedInAgent } from "./support/console-agent";
import { inHtml, messageOf } from "./support/api-message";

const PASSWORD = "a long enough password";

const keysOf = async (token: string, networkId: string) =>
  expectStatus(await api(token).GET("/api/v1/networks/{id}/enrolment-keys", { params: { path: { id: networkId } } }), 200).items;

describe("console devices", { timeout: 30_000 }, () => {
  it("lists the user's devices with their network and last heartbeat, and revokes one", async () => {
    const { network, as } = await networkSetup({ owner: "user" });
    const member = await as("member");
    const quiet = await enrolDevice(member, { networkId: network.id });
    const beating = await enrolDevice(member, { networkId: network.id });
    const beat = await api(beating.deviceToken).POST("/api/v1/client/devices/{id}/heartbeat", {
      params: { path: { id: beating.deviceId } },
      body: { appliedRevision: null },
    });
    expect(beat.response.status).toBe(200);

    const agent = await signedInAgent(member.email, PASSWORD);
    const page = await agent.get("/devices");
    expect(page.status).toBe(200);
    const rowOf = (name: string) => page.text.slice(page.text.indexOf(`<td>${name}</td>`)).split("</tr>")[0] ?? "";
    expect(rowOf(quiet.body.device.name)).toContain(network.name);
    expect(rowOf(quiet.body.device.name)).toContain("<td>never</td>");
    expect(rowOf(beating.body.device.name)).toMatch(/<td>(just now|\d+ s ago)<\/td>/);
    expect(page.text).toContain(`Revoke ${quiet.body.device.name}`);
    // A member manages no enrolment keys: no link to them.
    expect(page.text).not.toContain("/enrolment-keys?network=");

    const revoked = await agent.post(`/devices/${quiet.deviceId}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect((await api(member.token).GET("/api/v1/devices/{id}", { params: { path: { id: quiet.deviceId } } })).response.status).toBe(404);
  });

  it("shows a device that never beats (a WireGuard app) as its peers report it: online, with the handshake's age", async () => {
    const { network, as } = await networkSetup({ owner: "user" });
    const member = await as("member");
    const phone = await enrolDevice(member, { networkId: network.id, name: "ada-phone" });
    const laptop = await enrolDevice(member, { networkId: network.id, name: "ada-laptop" });
    const agent = await signedInAgent(member.email, PASSWORD);
    const before = await agent.get("/devices");
    const phoneRow = (text: string) => text.slice(text.indexOf("<td>ada-phone</td>")).split("</tr>")[0] ?? "";
    expect(phoneRow(before.text)).toContain("never seen");
    await api(laptop.deviceToken).POST("/api/v1/client/devices/{id}/heartbeat", {
      params: { path: { id: laptop.deviceId } },
      body: {
        appliedRevision: null,
        peers: [{ publicKey: phone.body.node.publicKey ?? "", lastHandshakeAt: new Date().toISOString(), rxBytes: 10, txBytes: 10 }],
      },
    });
    const after = phoneRow((await agent.get("/devices")).text);
    expect(after).toContain('class="status-ok">online');
    expect(after).toMatch(/handshake (just now|\d+ s ago), as ada-laptop reports/);
    expect(after).toContain("none: a config file");
    // The status page says the same of it, rather than "never".
    const status = await (await signedInAgent(member.email, PASSWORD)).get(`/networks/${network.id}/status`);
    const statusRow = status.text.slice(status.text.indexOf(`data-node="${phone.nodeId}"`)).split("</tr>")[0] ?? "";
    expect(statusRow).toMatch(/handshake (just now|\d+ s ago), as ada-laptop reports/);
  });

  it("says how to enrol when the user has no device", async () => {
    const user = await createUser(await signInAdmin());
    const page = await (await signedInAgent(user.email, PASSWORD)).get("/devices");
    expect(page.status).toBe(200);
    expect(page.text).toContain("No devices yet");
  });
});

describe("console enrolment keys", { timeout: 30_000 }, () => {
  it("creates a key, shows it once with the wgo up command to copy, and the key enrols a machine", async () => {
    const { owner, network } = await networkSetup({ owner: "user" });
    const agent = await signedInAgent(owner.email, PASSWORD);
    const devices = await agent.get("/devices");
    expect(devices.text).toContain(`/enrolment-keys?network=${network.id}`);
    const empty = await agent.get(`/enrolment-keys?network=${network.id}`);
    expect(empty.text).toContain("No enrolment keys for this network yet");

    const created = await agent.post("/enrolment-keys", {
      network: network.id,
      name: "build-servers",
      usageLimit: "3",
      expiresInSeconds: "86400",
    });
    expect(created.status).toBe(201);
    const key = /<code id="new-key">([^<]+)<\/code>/.exec(created.text)?.[1] ?? "";
    expect(key.length).toBeGreaterThan(20);
    // The key names the network: no id on the line; then the service that keeps the machine in sync.
    expect(created.text).toContain(`<code id="key-up">wgo up --api https://console.test --enrolment-key ${key}</code>`);
    expect(created.text).toContain('data-copy="key-up"');
    expect(created.text).toContain('<code id="key-service">wgo install-service</code>');
    expect(created.text).not.toContain(`--network ${network.id}`);
    expect(await keysOf(owner.token, network.id)).toEqual([
      expect.objectContaining({ name: "build-servers", usageLimit: 3, usedCount: 0 }),
    ]);

    // Shown once: the list never has it again.
    const later = await agent.get(`/enrolment-keys?network=${network.id}`);
    expect(later.text).toContain("build-servers");
    expect(later.text).not.toContain(key);

    const enrolled = await enrolDevice(null, { enrolmentKey: key });
    expect(enrolled.body.device.networkId).toBe(network.id);

    const [listed] = await keysOf(owner.token, network.id);
    expect((await agent.post(`/enrolment-keys/${listed?.id}/revoke`, { network: network.id })).status).toBe(303);
    expect((await keysOf(owner.token, network.id))[0]?.revokedAt).not.toBeNull();
  });

  it("refuses a viewer the keys page and a viewer's key POST, with the API's message", async () => {
    const { owner, network, as } = await networkSetup({ owner: "user" });
    const viewer = await as("viewer");
    const agent = await signedInAgent(viewer.email, PASSWORD);
    const page = await agent.get(`/enrolment-keys?network=${network.id}`);
    expect(page.status).toBe(403);
    expect(page.text).not.toContain("Create enrolment key");

    const direct = await api(viewer.token).POST("/api/v1/networks/{id}/enrolment-keys", {
      params: { path: { id: network.id } },
      body: { name: "forged" },
    });
    expect(direct.response.status).toBe(403);
    const forged = await agent.post("/enrolment-keys", { network: network.id, name: "forged", usageLimit: "1", expiresInSeconds: "3600" });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain(inHtml(messageOf(direct)));
    expect(await keysOf(owner.token, network.id)).toEqual([]);
  });
});
