import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { createUser, signInAdmin } from "../helpers/factories";
import { webhookChannel } from "./support/notify-helpers";
import { configureHook, received, runCron } from "./support/receiver";
import { expectError } from "../helpers/expect-error";

/** Make a pending delivery due now (instead of waiting out its backoff). */
const makeDue = (deliveryId: string) =>
  env.DB.prepare("UPDATE notification_deliveries SET next_attempt_at = ? WHERE id = ?")
    .bind(new Date(Date.now() - 1000).toISOString(), deliveryId)
    .run();

async function testDelivery(token: string, channelId: string) {
  const response = await post(`/notifications/channels/${channelId}/test`, undefined, token);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe("webhook delivery state and retries", () => {
  it("a channel test is delivered and signed; its state is visible", async () => {
    const user = await createUser(await signInAdmin());
    const { hook, channel } = await webhookChannel(user, ["node.offline"]);
    const delivery = await testDelivery(user.token, channel.id);
    expect(delivery).toMatchObject({
      channelId: channel.id,
      status: "delivered",
      attempts: 1,
      maxAttempts: 6,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      event: { type: "notification.test", subjectId: channel.id },
    });
    const [entry] = await received(hook.id);
    expect(entry!.verified, entry!.reason).toBe(true);
    expect(entry!.headers["x-overlay-delivery"]).toBe(delivery.id);
    expect((await get(`/notifications/deliveries/${delivery.id}`, user.token)).body).toEqual(delivery);
  });

  it("a failure is retried with backoff until it succeeds", async () => {
    const user = await createUser(await signInAdmin());
    const { hook, channel } = await webhookChannel(user, ["node.offline"]);
    await configureHook(hook.id, { responses: [500, 503] });
    const first = await testDelivery(user.token, channel.id);
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "HTTP 500" });
    const wait = Date.parse(first.nextAttemptAt) - Date.parse(first.lastAttemptAt);
    expect(wait).toBeGreaterThanOrEqual(29_000);
    expect(wait).toBeLessThanOrEqual(31_000);

    await runCron(); // not due yet
    expect((await get(`/notifications/deliveries/${first.id}`, user.token)).body.attempts).toBe(1);

    await makeDue(first.id);
    await runCron();
    const second = (await get(`/notifications/deliveries/${first.id}`, user.token)).body;
    expect(second).toMatchObject({ status: "pending", attempts: 2, lastStatusCode: 503 });
    expect(Date.parse(second.nextAttemptAt) - Date.parse(second.lastAttemptAt)).toBeGreaterThanOrEqual(119_000);

    await makeDue(first.id);
    await runCron();
    const third = (await get(`/notifications/deliveries/${first.id}`, user.token)).body;
    expect(third).toMatchObject({ status: "delivered", attempts: 3, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(third.deliveredAt).toBeTruthy();
    expect((await received(hook.id)).map((entry) => entry.status)).toEqual([500, 503, 200]);
  });

  it("gives up after 6 attempts: failed, no next attempt; POST retry starts over", async () => {
    const user = await createUser(await signInAdmin());
    const { hook, channel } = await webhookChannel(user, ["node.offline"]);
    await configureHook(hook.id, { responses: [500, 500, 500, 500, 500, 500] });
    const delivery = await testDelivery(user.token, channel.id);
    for (let attempt = 2; attempt <= 6; attempt++) {
      await makeDue(delivery.id);
      await runCron();
    }
    const failed = (await get(`/notifications/deliveries/${delivery.id}`, user.token)).body;
    expect(failed).toMatchObject({ status: "failed", attempts: 6, nextAttemptAt: null, lastError: "HTTP 500" });
    expect(
      (await get(`/notifications/deliveries?status=failed&channelId=${channel.id}`, user.token)).body.items.map(
        (d: { id: string }) => d.id,
      ),
    ).toEqual([delivery.id]);

    const retried = await post(`/notifications/deliveries/${delivery.id}/retry`, undefined, user.token);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
  });

  it("a redirect is a failure and is not followed", async () => {
    const user = await createUser(await signInAdmin());
    const { hook, channel } = await webhookChannel(user, ["node.offline"]);
    await configureHook(hook.id, { responses: [302] });
    const delivery = await testDelivery(user.token, channel.id);
    expect(delivery).toMatchObject({ status: "pending", lastStatusCode: 302, lastError: "redirect (HTTP 302) not followed" });
    expect((await received(hook.id)).map((entry) => entry.status)).toEqual([302]);
  });

  it("a receiver that does not answer in time is a failure (WEBHOOK_TIMEOUT_MS)", async () => {
    const user = await createUser(await signInAdmin());
    const { hook, channel } = await webhookChannel(user, ["node.offline"]);
    await configureHook(hook.id, { responses: ["hang"] });
    // The receiver never answers: only the timeout can end this attempt (the record says it did).
    const delivery = await testDelivery(user.token, channel.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null, lastError: "no answer within 1000 ms" });
  });

  it("a pending delivery cannot be retried by hand (409); deliveries of others are 404", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const other = await createUser(admin);
    const { hook, channel } = await webhookChannel(user, ["node.offline"]);
    await configureHook(hook.id, { responses: [500] });
    const delivery = await testDelivery(user.token, channel.id);
    expectError(await post(`/notifications/deliveries/${delivery.id}/retry`, undefined, user.token), 409, "conflict");
    expectError(await get(`/notifications/deliveries/${delivery.id}`, other.token), 404, "not_found");
    expectError(await post(`/notifications/deliveries/${delivery.id}/retry`, undefined, other.token), 404, "not_found");
    expect((await get("/notifications/deliveries", other.token)).body.items).toEqual([]);
  });

  it("a receiver refusing the signature (wrong secret after rotation) shows as 401", async () => {
    const user = await createUser(await signInAdmin());
    const { channel } = await webhookChannel(user, ["node.offline"]);
    // The receiver still holds the old secret.
    await post(`/notifications/channels/${channel.id}/rotate-secret`, undefined, user.token);
    const delivery = await testDelivery(user.token, channel.id);
    expect(delivery).toMatchObject({ status: "pending", lastStatusCode: 401 });
  });

  it("lists deliveries newest first with order=desc and pages with a cursor", async () => {
    const user = await createUser(await signInAdmin());
    const { channel } = await webhookChannel(user, ["node.offline"]);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await testDelivery(user.token, channel.id)).id);
    const first = await get("/notifications/deliveries?limit=2", user.token);
    expect(first.body.items.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 2));
    const second = await get(`/notifications/deliveries?limit=2&cursor=${first.body.nextCursor}`, user.token);
    expect(second.body).toMatchObject({ items: [{ id: ids[2] }], nextCursor: null });
    const newest = await get("/notifications/deliveries?limit=2&order=desc", user.token);
    expect(newest.body.items.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const older = await get(`/notifications/deliveries?limit=2&order=desc&cursor=${newest.body.nextCursor}`, user.token);
    expect(older.body.items.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    expectError(await get("/notifications/deliveries?cursor=nonsense", user.token), 422, "VALIDATION_ERROR");
    expectError(await get("/notifications/deliveries?status=lost", user.token), 422, "VALIDATION_ERROR");
  });
});
