import { type Context, Hono } from "hono";
import { byId, type Schema } from "../../../client/index.ts";
import { need, onFailure } from "../failure";
import { refusal, worded } from "../form";
import { matches, searchList, searchWords } from "../list-search";
import { CHANNEL_FIELDS, type NotificationsProps, NotificationsPage } from "../pages/notifications";
import type { SignedInEnv } from "../types";

export const notificationRoutes = new Hono<SignedInEnv>();
notificationRoutes.onError(onFailure);

type Status = "pending" | "delivered" | "failed";
const STATUSES: Status[] = ["pending", "delivered", "failed"];
type EventType = Schema<"CreateNotificationChannel">["events"][number];

async function notificationsView(c: Context<SignedInEnv>, query: { status?: string; cursor?: string; q?: string } = {}) {
  const status = STATUSES.find((value) => value === query.status);
  const { channels: allChannels, eventTypes } = need(await c.var.api.GET("/api/v1/notifications/settings"));
  const targets = new Map(allChannels.map((channel) => [channel.id, channel.target]));
  const words = searchWords(query.q);
  // One search for both lists: a channel by its target or events; a delivery by its channel, event, state or error.
  const channels = words ? allChannels.filter((channel) => matches(words, channel.target, channel.type, ...channel.events)) : allChannels;
  const page = await searchList(
    async (cursor, limit) =>
      need(
        await c.var.api.GET("/api/v1/notifications/deliveries", {
          params: { query: { limit, order: "desc", ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } },
        }),
      ),
    (delivery) => [targets.get(delivery.channelId), delivery.event.type, delivery.status, delivery.lastError],
    query.q,
    query.cursor,
    50,
  );
  return {
    search: words ? { q: query.q!, searched: page.searched } : undefined,
    user: c.var.user,
    csrfToken: c.var.csrfToken,
    channels,
    eventTypes: eventTypes as { type: string; description?: string }[],
    deliveries: page.items,
    nextCursor: page.nextCursor,
    status,
    channelTargets: targets,
  } satisfies NotificationsProps;
}

notificationRoutes.get("/notifications", async (c) =>
  c.html(
    <NotificationsPage
      {...(await notificationsView(c, { status: c.req.query("status"), cursor: c.req.query("cursor"), q: c.req.query("q") || undefined }))}
    />,
  ),
);

/** A refusal, shown above the add-channel form with what was typed. */
async function refused(c: Context<SignedInEnv>, result: { error?: unknown; response: Response }, values?: NotificationsProps["values"]) {
  const { message, fields, status } = refusal(result);
  const error = worded({ message, fields }, { fields: CHANNEL_FIELDS });
  return c.html(<NotificationsPage {...(await notificationsView(c))} error={error} values={values} />, status);
}

notificationRoutes.post("/notifications/channels", async (c) => {
  // Read directly: `events` is a checkbox group (one value per ticked box), which formFields flattens.
  const form = await c.req.formData();
  const type = form.get("type") === "email" ? "email" : "webhook";
  const target = String(form.get("target") ?? "").trim();
  const events = form.getAll("events").map(String);
  const body = { type, events: events as EventType[], ...(target ? { target } : {}) } as const;
  const created = await c.var.api.POST("/api/v1/notifications/channels", { body });
  if (!created.data) return refused(c, created, { type, target, events });
  // A webhook's signing secret is in this answer only: show it here rather than redirect it away.
  if (created.data.secret) {
    const secret = { channelTarget: created.data.target, value: created.data.secret };
    return c.html(<NotificationsPage {...(await notificationsView(c))} secret={secret} />, 201);
  }
  return c.redirect("/notifications", 303);
});

notificationRoutes.post("/notifications/channels/:id/rotate-secret", async (c) => {
  const rotated = await c.var.api.POST("/api/v1/notifications/channels/{id}/rotate-secret", byId(c.req.param("id")));
  if (!rotated.data?.secret) return refused(c, rotated);
  const secret = { channelTarget: rotated.data.target, value: rotated.data.secret };
  return c.html(<NotificationsPage {...(await notificationsView(c))} secret={secret} />);
});

notificationRoutes.post("/notifications/channels/:id/test", async (c) => {
  const tested = await c.var.api.POST("/api/v1/notifications/channels/{id}/test", byId(c.req.param("id")));
  return tested.response.ok ? c.redirect("/notifications#deliveries", 303) : refused(c, tested);
});

notificationRoutes.post("/notifications/channels/:id/delete", async (c) => {
  const deleted = await c.var.api.DELETE("/api/v1/notifications/channels/{id}", byId(c.req.param("id")));
  return deleted.response.ok ? c.redirect("/notifications", 303) : refused(c, deleted);
});

notificationRoutes.post("/notifications/deliveries/:id/retry", async (c) => {
  const retried = await c.var.api.POST("/api/v1/notifications/deliveries/{id}/retry", byId(c.req.param("id")));
  return retried.response.ok ? c.redirect("/notifications#deliveries", 303) : refused(c, retried);
});
