import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { del, post, put } from "../helpers/api";
import { assignGateway, createGateway, createNode, enrolDevice } from "../helpers/factories";
import { ownerWithNode, webhookChannel } from "./support/notify-helpers";
import { receivedAtLeast } from "./support/receiver";
import { expectError } from "../helpers/expect-error";

const policy = (gatewayPath: string[], name = "to-lab") => ({ name, type: "via_gateway", destinationCidr: "192.168.60.0/24", gatewayPath });

describe("events at the moment of a change (from the writes' domain events, in their batch)", () => {
  it("policy.changed for create, replace and delete, with the actor", async () => {
    const { admin, owner, network } = await ownerWithNode();
    const inventory = await createGateway(admin);
    await assignGateway(admin, network.groupId, { gatewayId: inventory.id });
    const hop = await createNode(owner, network.id, { gatewayId: inventory.id, endpoint: "198.51.100.20:51820" });
    const { hook } = await webhookChannel(owner, ["policy.changed"]);

    const created = await post(`/networks/${network.id}/routing-policies`, policy([hop.id]), owner.token);
    expect(created.status).toBe(201);
    expect((await put(`/routing-policies/${created.body.id}`, policy([hop.id], "renamed"), owner.token)).status).toBe(200);
    expect((await del(`/routing-policies/${created.body.id}`, owner.token)).status).toBe(204);

    const entries = await receivedAtLeast(hook.id, 3);
    expect(entries.every((entry) => entry.verified)).toBe(true);
    const bodies = entries
      .map((entry) => JSON.parse(entry.body))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    expect(bodies.map((body) => body.data.action).sort()).toEqual(["created", "deleted", "updated"]);
    for (const body of bodies) {
      expect(body).toMatchObject({ type: "policy.changed", networkId: network.id, subjectId: created.body.id });
      expect(body.data.actor).toEqual({ type: "user", id: owner.userId });
    }
    const deleted = bodies.find((body) => body.data.action === "deleted");
    expect(deleted.data.policy).toEqual({ id: created.body.id, name: "renamed" });
    const made = bodies.find((body) => body.data.action === "created");
    expect(made.data.policy).toMatchObject({
      id: created.body.id,
      name: "to-lab",
      gatewayPath: [hop.id],
      destinationCidr: "192.168.60.0/24",
    });
  });

  it("a rejected policy write (400) announces nothing", async () => {
    const { owner, network, node } = await ownerWithNode();
    const { hook } = await webhookChannel(owner, ["policy.changed"]);
    const refused = await post(`/networks/${network.id}/routing-policies`, policy([node.id]), owner.token);
    expectError(refused, 400, "validation_error");
    // Give background work the chance it would have had.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM notification_events WHERE network_id = ? AND type = 'policy.changed'")
      .bind(network.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
    void hook;
  });

  it("device.enrolled when a member enrols a device", async () => {
    const { owner, network } = await ownerWithNode();
    const { hook } = await webhookChannel(owner, ["device.enrolled"]);
    const enrolled = await enrolDevice(owner, { networkId: network.id, platform: "linux", clientVersion: "1.2.3" });
    const [entry] = await receivedAtLeast(hook.id, 1);
    const body = JSON.parse(entry!.body);
    expect(body).toMatchObject({
      type: "device.enrolled",
      networkId: network.id,
      subjectId: enrolled.deviceId,
      data: {
        device: { id: enrolled.deviceId, nodeId: enrolled.nodeId, platform: "linux", clientVersion: "1.2.3" },
        actor: { type: "user", id: owner.userId },
      },
    });
    expect(entry!.body).not.toContain(enrolled.deviceToken);
  });

  it("email channels receive through the configured mail transport (dev outbox in tests)", async () => {
    const { owner, network } = await ownerWithNode();
    const created = await post("/notifications/channels", { type: "email", events: ["device.enrolled"] }, owner.token);
    expect(created.status).toBe(201);
    const enrolled = await enrolDevice(owner, { networkId: network.id });
    const mail = await vi.waitFor(
      async () => {
        const row = await env.DB.prepare("SELECT subject, text FROM dev_mail WHERE recipient = ? ORDER BY created_at DESC")
          .bind(owner.email)
          .first<{ subject: string; text: string }>();
        expect(row).toBeTruthy();
        return row!;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(mail.subject).toMatch(/^\[WireGuard overlay\] Device .+ enrolled$/);
    expect(mail.text).toContain(enrolled.deviceId);
    expect(mail.text).not.toContain(enrolled.deviceToken);
  });
});
