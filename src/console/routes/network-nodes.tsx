import { type Context, Hono } from "hono";
import { asText, type Schema } from "../../../client/index.ts";
import { formFields } from "../form";
import { NetworkNodesPage } from "../pages/network-nodes";
import type { SignedInEnv } from "../types";
import { attachment, failure, type LoadedNetwork, loadNetwork, optional, type Refused, refusedBy } from "./network-context";

/** /networks/:id/nodes: the table, adding a node, changing its endpoint, deleting it, its config as a file. */
export const networkNodeRoutes = new Hono<SignedInEnv>();

/** The page; after a refused form, with the API's sentence, the form's values and the API's status. */
async function renderNodes(c: Context<SignedInEnv>, loaded: LoadedNetwork, refused?: Refused) {
  const cursor = c.req.query("cursor");
  const [nodes, gateways] = await Promise.all([
    c.var.api.GET("/api/v1/nodes", { params: { query: { networkId: loaded.network.id, limit: 200, ...(cursor ? { cursor } : {}) } } }),
    loaded.canChange ? c.var.api.GET("/api/v1/gateways", { params: { query: { limit: 200 } } }) : undefined,
  ]);
  if (!nodes.data) return failure(c, nodes);
  const page = (
    <NetworkNodesPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      {...loaded}
      nodes={nodes.data.items}
      nextCursor={nodes.data.nextCursor}
      gateways={gateways?.data?.items ?? []}
      error={refused?.error}
      values={refused?.values}
    />
  );
  return c.html(page, refused?.status ?? 200);
}

networkNodeRoutes.get("/networks/:id/nodes", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  return renderNodes(c, loaded);
});

/** The form's fields as CreateNode: empty optional fields omitted, the gateway role only when ticked. */
function createNodeBody(networkId: string, values: Record<string, string>): Schema<"CreateNode"> {
  const gateway = values.gateway === "on";
  return {
    networkId,
    name: values.name ?? "",
    publicKey: optional(values.publicKey, String),
    address: optional(values.address, String),
    endpoint: optional(values.endpoint, String),
    listenPort: optional(values.listenPort, Number),
    ...(gateway ? { roles: ["gateway"], gatewayId: optional(values.gatewayId, String) ?? null } : {}),
    ...(values.servesDns === "on" ? { servesDns: true } : {}),
  };
}

networkNodeRoutes.post("/networks/:id/nodes", async (c) => {
  const values = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const created = await c.var.api.POST("/api/v1/nodes", { body: createNodeBody(loaded.network.id, values) });
  if (created.data) return c.redirect(`/networks/${loaded.network.id}/nodes`, 303);
  return renderNodes(c, loaded, refusedBy(created, values));
});

networkNodeRoutes.post("/networks/:id/nodes/:nodeId/endpoint", async (c) => {
  const { endpoint = "" } = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const changed = await c.var.api.PATCH("/api/v1/nodes/{id}", {
    params: { path: { id: c.req.param("nodeId") } },
    body: { endpoint: endpoint.trim() === "" ? null : endpoint.trim() },
  });
  if (changed.data) return c.redirect(`/networks/${loaded.network.id}/nodes`, 303);
  return renderNodes(c, loaded, refusedBy(changed));
});

networkNodeRoutes.post("/networks/:id/nodes/:nodeId/delete", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const deleted = await c.var.api.DELETE("/api/v1/nodes/{id}", { params: { path: { id: c.req.param("nodeId") } } });
  if (deleted.response.ok) return c.redirect(`/networks/${loaded.network.id}/nodes`, 303);
  return renderNodes(c, loaded, refusedBy(deleted));
});

/** The node's wg-quick file (the API's text/plain answer), saved as <name>.conf; PrivateKey is a placeholder. */
networkNodeRoutes.get("/networks/:id/nodes/:nodeId/config", async (c) => {
  const id = c.req.param("nodeId");
  const node = await c.var.api.GET("/api/v1/nodes/{id}", { params: { path: { id } } });
  if (!node.data) return failure(c, node);
  const config = await c.var.api.GET("/api/v1/nodes/{id}/config", { params: { path: { id } }, ...asText });
  if (typeof config.data !== "string") return failure(c, config);
  return attachment(c, config.data, `${node.data.name}.conf`);
});
