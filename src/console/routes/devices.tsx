import { type Context, Hono } from "hono";
import { byId } from "../../../client/index.ts";
import { ApiFailure, need, onFailure } from "../failure";
import { formFields, refusal } from "../form";
import { searchList, searchWords } from "../list-search";
import { seenByPeers } from "../peer-seen";
import { DevicesPage } from "../pages/devices";
import { EnrolmentKeysPage } from "../pages/enrolment-keys";
import { canChangeGroup } from "../roles";
import type { SignedInEnv } from "../types";
import { wgoUpWithKey } from "../wgo-commands";

export const deviceRoutes = new Hono<SignedInEnv>();
deviceRoutes.onError(onFailure);

async function devicesView(c: Context<SignedInEnv>, cursor?: string, q?: string) {
  const read = async (at: string | undefined, limit: number) =>
    need(await c.var.api.GET("/api/v1/devices", { params: { query: { limit, ...(at ? { cursor: at } : {}) } } }));
  const [page, networks, groups] = await Promise.all([
    searchList(read, (device) => [device.name], q, cursor, 100),
    c.var.api.GET("/api/v1/networks", { params: { query: { limit: 200 } } }),
    c.var.api.GET("/api/v1/groups", { params: { query: { limit: 200 } } }),
  ]);
  const groupById = new Map(need(groups).items.map((group) => [group.id, group]));
  const peerSeen = await seenByPeers(c.var.api, page.items);
  // The nodes that reported those handshakes, by name (their networks' node lists: a page spans few networks).
  const reporters = [...new Set([...peerSeen.values()].map((seen) => seen.byNodeId))];
  const reporterNames = new Map<string, string>();
  await Promise.all(
    reporters.map(async (id) => {
      const node = await c.var.api.GET("/api/v1/nodes/{id}", { params: { path: { id } } });
      if (node.data) reporterNames.set(id, node.data.name);
    }),
  );
  const networkList = need(networks).items;
  const manages = (networkId: string) => {
    const network = networkList.find((item) => item.id === networkId);
    return canChangeGroup(c.var.user, network ? groupById.get(network.groupId) : undefined);
  };
  return {
    user: c.var.user,
    csrfToken: c.var.csrfToken,
    devices: page.items,
    nextCursor: page.nextCursor,
    networkNames: new Map(networkList.map((network) => [network.id, network.name])),
    revocable: new Set(page.items.filter((d) => d.userId === c.var.user.id || manages(d.networkId)).map((d) => d.id)),
    keyNetworks: networkList.filter((network) => manages(network.id)),
    search: { q, searched: page.searched },
    peerSeen,
    reporterNames,
  };
}

deviceRoutes.get("/devices", async (c) =>
  c.html(<DevicesPage {...(await devicesView(c, c.req.query("cursor"), searchWords(c.req.query("q"))))} />),
);

deviceRoutes.post("/devices/:id/revoke", async (c) => {
  const revoked = await c.var.api.DELETE("/api/v1/devices/{id}", byId(c.req.param("id")));
  if (revoked.response.ok) return c.redirect("/devices", 303);
  const { message, status } = refusal(revoked);
  return c.html(<DevicesPage {...(await devicesView(c))} error={{ message }} />, status);
});

async function keysView(c: Context<SignedInEnv>, networkId: string) {
  const [network, keys] = await Promise.all([
    c.var.api.GET("/api/v1/networks/{id}", byId(networkId)),
    c.var.api.GET("/api/v1/networks/{id}/enrolment-keys", { params: { path: { id: networkId }, query: { limit: 200 } } }),
  ]);
  return { user: c.var.user, csrfToken: c.var.csrfToken, network: need(network), keys: need(keys).items };
}

deviceRoutes.get("/enrolment-keys", async (c) => {
  const networkId = c.req.query("network");
  if (!networkId) return c.redirect("/devices#keys", 303);
  return c.html(<EnrolmentKeysPage {...(await keysView(c, networkId))} />);
});

/** The created key is in this answer only (the API never shows it again), so it renders here, no redirect. */
deviceRoutes.post("/enrolment-keys", async (c) => {
  const values = await formFields(c);
  const networkId = values.network ?? "";
  const body = { name: values.name ?? "", usageLimit: Number(values.usageLimit), expiresInSeconds: Number(values.expiresInSeconds) };
  const created = await c.var.api.POST("/api/v1/networks/{id}/enrolment-keys", { params: { path: { id: networkId } }, body });
  if (!created.data) {
    const { message, fields, status } = refusal(created);
    const view = await keysView(c, networkId).catch(() => Promise.reject(new ApiFailure(message, status)));
    return c.html(<EnrolmentKeysPage {...view} values={values} error={{ message, fields }} />, status);
  }
  // With a key no one signs in, and the key names the network: no --network (wgo looks names up only when signed in).
  const { origin } = new URL(c.req.url);
  const command = wgoUpWithKey(origin, created.data.key);
  return c.html(<EnrolmentKeysPage {...(await keysView(c, networkId))} created={{ key: created.data.key, command, origin }} />, 201);
});

deviceRoutes.post("/enrolment-keys/:keyId/revoke", async (c) => {
  const { network = "" } = await formFields(c);
  const path = { id: network, keyId: c.req.param("keyId") };
  const revoked = await c.var.api.DELETE("/api/v1/networks/{id}/enrolment-keys/{keyId}", { params: { path } });
  if (revoked.response.ok) return c.redirect(`/enrolment-keys?network=${encodeURIComponent(network)}`, 303);
  const { message, status } = refusal(revoked);
  // Someone who may not list the keys (a viewer) gets the refusal of what they tried, as a page.
  const view = await keysView(c, network).catch(() => Promise.reject(new ApiFailure(message, status)));
  return c.html(<EnrolmentKeysPage {...view} error={{ message }} />, status);
});
