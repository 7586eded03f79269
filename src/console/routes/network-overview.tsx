import { Hono } from "hono";
import { formFields, refusal } from "../form";
import { DeleteNetworkPage, NetworkOverviewPage } from "../pages/network-overview";
import type { SignedInEnv } from "../types";
import { loadNetwork } from "./network-context";

/** /networks/:id: the network's fields, editing its name and DNS domain, deleting it after a confirmation. */
export const networkOverviewRoutes = new Hono<SignedInEnv>();

networkOverviewRoutes.get("/networks/:id", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const id = loaded.network.id;
  const [nodes, policies] = await Promise.all([
    c.var.api.GET("/api/v1/nodes", { params: { query: { networkId: id, limit: 200 } } }),
    c.var.api.GET("/api/v1/networks/{id}/routing-policies", { params: { path: { id }, query: { limit: 1 } } }),
  ]);
  const progress = nodes.data && policies.data ? { nodes: nodes.data.items, policyCount: policies.data.items.length } : undefined;
  return c.html(
    <NetworkOverviewPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      {...loaded}
      progress={progress}
      created={c.req.query("created") === "1"}
    />,
  );
});

networkOverviewRoutes.post("/networks/:id", async (c) => {
  const values = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const { network } = loaded;
  const changed = await c.var.api.PATCH("/api/v1/networks/{id}", {
    params: { path: { id: network.id } },
    body: { name: values.name ?? "", dnsDomain: values.dnsDomain ?? "" },
  });
  if (changed.data) return c.redirect(`/networks/${network.id}`, 303);
  const { message, fields, status } = refusal(changed);
  return c.html(
    <NetworkOverviewPage user={c.var.user} csrfToken={c.var.csrfToken} {...loaded} values={values} error={{ message, fields }} />,
    status,
  );
});

networkOverviewRoutes.get("/networks/:id/delete", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  return c.html(<DeleteNetworkPage user={c.var.user} csrfToken={c.var.csrfToken} network={loaded.network} />);
});

networkOverviewRoutes.post("/networks/:id/delete", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const deleted = await c.var.api.DELETE("/api/v1/networks/{id}", { params: { path: { id: loaded.network.id } } });
  if (deleted.response.ok) return c.redirect("/networks", 303);
  const { message, fields, status } = refusal(deleted);
  return c.html(
    <DeleteNetworkPage user={c.var.user} csrfToken={c.var.csrfToken} network={loaded.network} error={{ message, fields }} />,
    status,
  );
});
