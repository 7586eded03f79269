import { type Context, Hono } from "hono";
import { formFields, worded } from "../form";
import { FailurePage } from "../pages/network-frame";
import { NodePage } from "../pages/node-page";
import type { SignedInEnv } from "../types";
import { failure, type LoadedNetwork, loadNetwork, type Refused, refusedBy } from "./network-context";

/** /networks/:id/nodes/:nodeId: one node and its paths across NAT (docs/nat.md); a gateway node's relay role. */
export const nodePageRoutes = new Hono<SignedInEnv>();

/** The page; after a refused relay change, with the API's sentence and status. */
async function renderNode(c: Context<SignedInEnv>, loaded: LoadedNetwork, refused?: Refused) {
  const id = c.req.param("nodeId") ?? "";
  const node = await c.var.api.GET("/api/v1/nodes/{id}", { params: { path: { id } } });
  if (!node.data) return failure(c, node);
  // A node of another network under this one's path: the same answer as an unknown node, not a mixed page.
  if (node.data.networkId !== loaded.network.id)
    return c.html(<FailurePage user={c.var.user} csrfToken={c.var.csrfToken} message={`No node ${id} in ${loaded.network.name}.`} />, 404);
  const paths = await c.var.api.GET("/api/v1/nodes/{id}/paths", { params: { path: { id } } });
  // For another member's device (redacted) the API keeps the paths as it keeps the config: 404, which the page
  // says in words. Any other refusal is the API's to show.
  if (!paths.data && !(paths.response.status === 404 && node.data.redacted)) return failure(c, paths);
  const page = (
    <NodePage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      {...loaded}
      node={node.data}
      paths={paths.data ?? null}
      error={refused && worded(refused.error, { fields: { relay: { label: "Relay", field: "relay" } } })}
    />
  );
  return c.html(page, refused?.status ?? 200);
}

nodePageRoutes.get("/networks/:id/nodes/:nodeId", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  return renderNode(c, loaded);
});

/** The relay checkbox: ticked sends relay true, unticked (absent from the form) false. */
nodePageRoutes.post("/networks/:id/nodes/:nodeId/relay", async (c) => {
  const { relay } = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const nodeId = c.req.param("nodeId");
  const changed = await c.var.api.PATCH("/api/v1/nodes/{id}", { params: { path: { id: nodeId } }, body: { relay: relay === "on" } });
  if (changed.data) return c.redirect(`/networks/${loaded.network.id}/nodes/${nodeId}`, 303);
  return renderNode(c, loaded, refusedBy(changed));
});
