import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { post } from "../helpers/api";
import { createUser, signInAdmin, type Session } from "../helpers/factories";
import { changedTables, settle, snapshot } from "../fuzz/snapshot";
import { appWith, spyOnOutbound } from "./outbound";
import { checkWebhookUrl } from "../../src/services/notifications/webhook-url";

/**
 * Issue 12, item 10: webhook targets on names that only resolve inside a site, a cluster or a cloud
 * (or can never be public) are refused when saved and again before each delivery, like addresses.
 */
const INTERNAL_NAMES = [
  "https://localhost../",
  "https://localhost.../x",
  "https://api.localhost../",
  "https://metadata.google.internal./",
  "https://metadata.google.internal../",
  "https://db.internal/",
  "https://printer.local/",
  "https://nas.lan/",
  "https://mail.corp/",
  "https://router.home.arpa/",
  "https://1.0.0.10.in-addr.arpa/",
  "https://kubernetes.default.svc/",
  "https://api.ns.svc.cluster.local/",
  "https://files.home/",
  "https://wiki.intranet/",
  "https://vault.private/",
  "https://x.test/",
  "https://x.invalid/",
  "https://x.example/",
  "https://abc.onion/",
  "https://x.alt/",
  "https://a..b.com/",
  "https://NAS.LAN./",
];
const webhook = (target: string) => ({ type: "webhook", target, events: ["node.offline"] });

let user: Session;
beforeAll(async () => {
  user = await createUser(await signInAdmin());
});

describe("item 10: webhook targets on internal names", () => {
  it.each(INTERNAL_NAMES)("%s is refused at save (POST and PATCH, 400), nothing stored, nothing fetched", async (target) => {
    const request = appWith({ WEBHOOK_ALLOW_HTTP_LOOPBACK: "false" });
    const channel = await post("/notifications/channels", webhook("https://hooks.example.com/ok"), user.token);
    expect(channel.status, channel.text).toBe(201);
    await settle();
    const outbound = spyOnOutbound();
    const before = await snapshot();
    const created = await request("/notifications/channels", { method: "POST", token: user.token, json: webhook(target) });
    const changed = await request(`/notifications/channels/${channel.body.id}`, { method: "PATCH", token: user.token, json: { target } });
    for (const response of [created, changed]) {
      expect(response.status, target).toBe(400);
      expect(((await response.json()) as any).error.code).toBe("validation_error");
    }
    await settle();
    expect(changedTables(before, await snapshot())).toEqual([]);
    expect(outbound.calls).toEqual([]);
    await request(`/notifications/channels/${channel.body.id}`, { method: "DELETE", token: user.token });
  });

  it("a stored target on an internal name is refused before the attempt connects", async () => {
    const created = await post("/notifications/channels", webhook("https://hooks.example.com/later"), user.token);
    await env.DB.prepare("update notification_channels set target = ? where id = ?")
      .bind("https://metadata.google.internal../computeMetadata/v1/", created.body.id)
      .run();
    const outbound = spyOnOutbound();
    const attempt = await post(`/notifications/channels/${created.body.id}/test`, undefined, user.token);
    expect(attempt.status, attempt.text).toBe(201);
    expect(attempt.body.status).not.toBe("delivered");
    expect(attempt.body.lastError).toMatch(/refused/);
    expect(outbound.calls).toEqual([]);
  });

  it("public names, including ones that merely contain an internal word, stay allowed", () => {
    for (const url of [
      "https://hooks.example.com/x",
      "https://internal.example.com/x",
      "https://local.news/x",
      "https://lan.party.io./x",
      "https://corp.com/x",
    ]) {
      expect(checkWebhookUrl(url, false).ok, url).toBe(true);
    }
  });
});
