import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createUser, expectStatus, signInAdmin } from "../helpers/factories";
import { newHook } from "../notifications/support/receiver";
import { signedInAgent } from "./support/console-agent";
import { inHtml, messageOf } from "./support/api-message";

const PASSWORD = "a long enough password";
const secretIn = (text: string) => /<code id="webhook-secret">([^<]+)<\/code>/.exec(text)?.[1];

const channelsOf = async (token: string) => expectStatus(await api(token).GET("/api/v1/notifications/channels"), 200).items;

describe("console notifications", { timeout: 30_000 }, () => {
  it("says what to do while there are no channels and no deliveries", async () => {
    const user = await createUser(await signInAdmin());
    const page = await (await signedInAgent(user.email, PASSWORD)).get("/notifications");
    expect(page.status).toBe(200);
    expect(page.text).toContain("No channels yet");
    expect(page.text).toContain("No deliveries yet");
    expect(page.text).toContain('for="event-node.offline"');
  });

  it("adds a webhook, shows its signing secret once, and rotating shows a new one once", async () => {
    const user = await createUser(await signInAdmin());
    const agent = await signedInAgent(user.email, PASSWORD);
    const url = newHook().url;
    const created = await agent.post("/notifications/channels", { type: "webhook", target: url, events: "node.offline" });
    expect(created.status).toBe(201);
    const secret = secretIn(created.text);
    expect(secret).toMatch(/^whsec_/);
    const [channel] = await channelsOf(user.token);
    expect(channel).toMatchObject({ type: "webhook", target: url, events: ["node.offline"] });
    expect((await agent.get("/notifications")).text).not.toContain(secret);

    const rotated = await agent.post(`/notifications/channels/${channel?.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const next = secretIn(rotated.text);
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect((await agent.get("/notifications")).text).not.toContain(next);
  });

  it("ticks several events into one channel", async () => {
    const user = await createUser(await signInAdmin());
    const agent = await signedInAgent(user.email, PASSWORD);
    const body = new URLSearchParams({ _csrf: agent.cookies.get("__Host-wgo_csrf") ?? "", type: "email", target: "" });
    body.append("events", "gateway.down");
    body.append("events", "gateway.failover");
    const created = await agent.request("/notifications/channels", {
      method: "POST",
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
    });
    expect(created.status).toBe(303);
    expect(await channelsOf(user.token)).toEqual([
      expect.objectContaining({ type: "email", target: user.email, events: ["gateway.down", "gateway.failover"] }),
    ]);
  });

  it("shows the API's refusal of a private webhook address above the form, with what was typed", async () => {
    const user = await createUser(await signInAdmin());
    const agent = await signedInAgent(user.email, PASSWORD);
    const target = "https://10.1.2.3/hook";
    const direct = await api(user.token).POST("/api/v1/notifications/channels", {
      body: { type: "webhook", target, events: ["node.offline"] },
    });
    expect(direct.response.status).toBe(400);
    const refused = await agent.post("/notifications/channels", { type: "webhook", target, events: "node.offline" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(inHtml(messageOf(direct)));
    expect(refused.text).toContain(`value="${target}"`);
    expect(await channelsOf(user.token)).toEqual([]);
  });

  it("sends a test, lists the delivery with its state and attempts, retries it, and deletes the channel", async () => {
    const user = await createUser(await signInAdmin());
    const agent = await signedInAgent(user.email, PASSWORD);
    expect((await agent.post("/notifications/channels", { type: "email", target: "", events: "node.offline" })).status).toBe(303);
    const [channel] = await channelsOf(user.token);

    expect((await agent.post(`/notifications/channels/${channel?.id}/test`, {})).status).toBe(303);
    const deliveries = expectStatus(await api(user.token).GET("/api/v1/notifications/deliveries"), 200).items;
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    const page = await agent.get("/notifications");
    expect(page.text).toContain("<code>notification.test</code>");
    expect(page.text).toContain(`${delivery?.attempts} of ${delivery?.maxAttempts}`);

    // Mail goes to the dev transport: delivered on the first attempt, so it can be sent again.
    expect(delivery?.status).toBe("delivered");
    expect(page.text).toContain(`Retry delivery ${delivery?.id}`);
    expect((await agent.post(`/notifications/deliveries/${delivery?.id}/retry`, {})).status).toBe(303);
    const after = expectStatus(
      await api(user.token).GET("/api/v1/notifications/deliveries/{id}", { params: { path: { id: delivery?.id ?? "" } } }),
      200,
    );
    expect(after.updatedAt).not.toBe(delivery?.updatedAt);

    // Someone else's channel is not theirs to delete: the API's answer, and the channel stays.
    const stranger = await createUser(await signInAdmin());
    const theirs = await signedInAgent(stranger.email, PASSWORD);
    const forged = await theirs.post(`/notifications/channels/${channel?.id}/delete`, {});
    expect(forged.status).toBe(404);
    expect(forged.text).toContain('role="alert"');
    expect(await channelsOf(user.token)).toHaveLength(1);

    expect((await agent.post(`/notifications/channels/${channel?.id}/delete`, {})).status).toBe(303);
    expect(await channelsOf(user.token)).toEqual([]);
  });

  it("searches channels and deliveries with one box: by target, event, state or error", async () => {
    const user = await createUser(await signInAdmin());
    const agent = await signedInAgent(user.email, PASSWORD);
    const hook = newHook().url;
    await agent.post("/notifications/channels", { type: "webhook", target: hook, events: "node.offline" });
    await agent.post("/notifications/channels", { type: "email", target: "", events: "gateway.failover" });
    const email = (await channelsOf(user.token)).find((channel) => channel.type === "email")!;
    expect((await agent.post(`/notifications/channels/${email.id}/test`, {})).status).toBe(303);
    const rows = (text: string) => text.split("<tr>").length - 1;

    // The webhook's host is in one channel's target: that channel, and no delivery (the test went by mail).
    const byTarget = await agent.get(`/notifications?q=${encodeURIComponent(new URL(hook).host)}`);
    expect(byTarget.status).toBe(200);
    expect(byTarget.text).toContain(`<code>${hook}</code>`);
    expect(byTarget.text).not.toContain("<td>email</td>");
    expect(byTarget.text).toContain("No delivery matches");
    // An event type finds the channel that asked for it, and the delivery of that kind.
    const byEvent = await agent.get("/notifications?q=notification.test");
    expect(byEvent.text).toContain("<code>notification.test</code>");
    expect(byEvent.text).toMatch(/1 item matching “notification.test” among 1 searched/);
    expect(byEvent.text).toContain("No channel matches");
    const byState = await agent.get("/notifications?q=delivered&status=delivered");
    expect(byState.text).toContain("<code>notification.test</code>");
    expect(byState.text).toContain('name="status" value="delivered"');
    expect(rows((await agent.get("/notifications?q=gateway.failover")).text)).toBeGreaterThan(1);
  });
});
