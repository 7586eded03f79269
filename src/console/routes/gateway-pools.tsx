import { Hono } from "hono";
import { formFields } from "../form";
import { poolMembersOf } from "../pages/gateway-pools";
import type { SignedInEnv } from "../types";
import { loadNetwork, refusedBy } from "./network-context";
import { renderPolicies } from "./network-policies";

/** Gateway pools, shown on the policies page: create one, drain or undrain a member. */
export const gatewayPoolRoutes = new Hono<SignedInEnv>();

gatewayPoolRoutes.post("/networks/:id/pools", async (c) => {
  const values = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const created = await c.var.api.POST("/api/v1/networks/{id}/gateway-pools", {
    params: { path: { id: loaded.network.id } },
    body: { name: values.name ?? "", members: poolMembersOf(values), preempt: values.preempt === "on" },
  });
  if (created.data) return c.redirect(`/networks/${loaded.network.id}/policies`, 303);
  return renderPolicies(c, loaded, { ...refusedBy(created, values), valuesOf: "pool" });
});

gatewayPoolRoutes.post("/networks/:id/pools/:poolId/members/:nodeId/:action{drain|undrain}", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const params = { params: { path: { id: c.req.param("poolId"), nodeId: c.req.param("nodeId") } } };
  const changed =
    c.req.param("action") === "drain"
      ? await c.var.api.POST("/api/v1/gateway-pools/{id}/members/{nodeId}/drain", params)
      : await c.var.api.POST("/api/v1/gateway-pools/{id}/members/{nodeId}/undrain", params);
  if (changed.response.ok) return c.redirect(`/networks/${loaded.network.id}/policies`, 303);
  return renderPolicies(c, loaded, refusedBy(changed));
});
