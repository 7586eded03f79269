import { describe, expect, it } from "vitest";
import { get } from "../helpers/api";
import { received, receivedAtLeast, runCron } from "./support/receiver";
import { deliveriesOf, ownerWithNode, setNodeSeen, startDriftClock, webhookChannel } from "./support/notify-helpers";

describe("config.drift delivered to a real webhook receiver", () => {
  it("arrives once per (node, desired revision), signed so the receiver verifies it", async () => {
    const { owner, network, node } = await ownerWithNode();
    const { hook, channel } = await webhookChannel(owner, ["config.drift"]);
    const desired = (await get(`/networks/${network.id}`, owner.token)).body.routingRevision as number;
    expect(desired).toBeGreaterThan(0);
    // Online (heartbeat just now) but running revision 0.
    await setNodeSeen(node.id, 5, 0);

    await runCron(); // starts the drift clock; nothing is late yet
    expect(await received(hook.id)).toEqual([]);

    await startDriftClock(node.id, 3600); // behind for an hour, past DRIFT_AFTER_SECONDS
    await runCron();
    const [delivery] = await receivedAtLeast(hook.id, 1);
    expect(delivery!.verified, delivery!.reason).toBe(true);
    expect(delivery!.headers["x-overlay-event"]).toBe("config.drift");
    expect(delivery!.headers["x-overlay-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const body = JSON.parse(delivery!.body);
    expect(body).toMatchObject({
      type: "config.drift",
      networkId: network.id,
      subjectId: node.id,
      data: { node: { id: node.id, name: node.name }, desiredRevision: desired, appliedRevision: 0 },
    });
    expect(delivery!.headers["x-overlay-event-id"]).toBe(body.id);

    await runCron(); // same node, same desired revision: no second event
    expect(await received(hook.id)).toHaveLength(1);
    const deliveries = await deliveriesOf(owner, `&channelId=${channel.id}`);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      status: "delivered",
      attempts: 1,
      lastError: null,
      event: { type: "config.drift", subjectId: node.id },
    });
  });
});
