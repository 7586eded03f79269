import { type Context, Hono } from "hono";
import { asText, type Schema } from "../../../client/index.ts";
import { formFields, worded } from "../form";
import type { FieldMap } from "../humanize";
import { tagsFieldOf, tagsOf } from "../pages/node-tags";
import { searchList, searchWords } from "../list-search";
import type { NodeAddedProps } from "../pages/node-added";
import { awaitingAgent } from "../pages/awaiting";
import { NetworkNodesPage } from "../pages/network-nodes";
import { NODE_FIELDS } from "../pages/node-form";
import { isPlatformAdmin } from "../roles";
import type { SignedInEnv } from "../types";
import { gatewayChoices } from "./gateway-choices";
import { attachment, failure, type LoadedNetwork, loadNetwork, optional, type Refused, refusedBy } from "./network-context";

/** /networks/:id/nodes: the table, adding a node, changing its endpoint, deleting it, its config as a file. */
export const networkNodeRoutes = new Hono<SignedInEnv>();

/** The page; after a refused form, with the API's sentence, the form's values and the API's status. */
async function renderNodes(c: Context<SignedInEnv>, loaded: LoadedNetwork, refused?: Refused, added?: AddedNode, fields?: FieldMap) {
  const q = searchWords(c.req.query("q"));
  const read = async (at: string | undefined, limit: number) => {
    const answer = await c.var.api.GET("/api/v1/nodes", {
      params: { query: { networkId: loaded.network.id, limit, ...(at ? { cursor: at } : {}) } },
    });
    if (!answer.data) throw answer;
    return answer.data;
  };
  const [nodes, gateways] = await Promise.all([
    searchList(read, (node) => [node.name, node.address], q, c.req.query("cursor")).catch(
      (refused: Parameters<typeof failure>[1]) => refused,
    ),
    loaded.canChange ? gatewayChoices(c, loaded.network.groupId) : [],
  ]);
  if (!("items" in nodes)) return failure(c, nodes);
  const page = (
    <NetworkNodesPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      {...loaded}
      nodes={nodes.items}
      nextCursor={nodes.nextCursor}
      search={{ q, searched: nodes.searched }}
      gateways={gateways}
      platformAdmin={isPlatformAdmin(c.var.user)}
      added={added && (await addedView(c, added))}
      error={refused && worded(refused.error, { names: nameMap(nodes.items, gateways), fields: { ...NODE_FIELDS, ...fields } })}
      values={refused?.values}
    />
  );
  return c.html(page, refused?.status ?? (added?.token ? 201 : 200));
}

/** The names a refusal may mention by id: the network's nodes and the gateways on offer. */
const nameMap = (nodes: Schema<"Node">[], gateways: { gateway: Schema<"Gateway"> }[]) =>
  new Map([...nodes.map((node) => [node.id, node.name] as const), ...gateways.map(({ gateway }) => [gateway.id, gateway.name] as const)]);

/** The node named by `?added=` after a create (or the agent-token POST), and a token just issued for it. */
interface AddedNode {
  node: Schema<"Node">;
  token?: string;
}

async function addedView(c: Context<SignedInEnv>, { node, token }: AddedNode): Promise<NodeAddedProps> {
  const origin = new URL(c.req.url).origin;
  const base = { node, origin, token, csrfToken: c.var.csrfToken, networkId: node.networkId, platformAdmin: isPlatformAdmin(c.var.user) };
  if (!node.gatewayId) return base;
  const [gateway, agents] = await Promise.all([
    c.var.api.GET("/api/v1/gateways/{id}", { params: { path: { id: node.gatewayId } } }),
    c.var.api.GET("/api/v1/agents", { params: { query: { limit: 200 } } }),
  ]);
  // Only a gateway daemon runs nodes (a manager registers its region's gateways).
  const hasAgent = (agents.data?.items ?? []).some(
    (agent) => agent.status === "active" && agent.kind === "gateway-daemon" && agent.gatewayId === node.gatewayId,
  );
  return { ...base, gateway: { name: gateway.data?.name ?? node.gatewayId, hasAgent } };
}

async function nodeOf(c: Context<SignedInEnv>, networkId: string, id: string | undefined) {
  if (!id) return undefined;
  const node = await c.var.api.GET("/api/v1/nodes/{id}", { params: { path: { id } } });
  return node.data?.networkId === networkId ? node.data : undefined;
}

networkNodeRoutes.get("/networks/:id/nodes", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const node = await nodeOf(c, loaded.network.id, c.req.query("added"));
  return renderNodes(c, loaded, undefined, node && { node });
});

/** A platform admin's shortcut from a new gateway node: a gateway-daemon token for its gateway, shown once. */
networkNodeRoutes.post("/networks/:id/nodes/:nodeId/agent-token", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const node = await nodeOf(c, loaded.network.id, c.req.param("nodeId"));
  if (!node?.gatewayId) return c.redirect(`/networks/${loaded.network.id}/nodes`, 303);
  const issued = await c.var.api.POST("/api/v1/agents/enrolment-tokens", { body: { kind: "gateway-daemon", gatewayId: node.gatewayId } });
  if (!issued.data) return renderNodes(c, loaded, refusedBy(issued), { node });
  return renderNodes(c, loaded, undefined, { node, token: issued.data.token });
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
    ...(values.relay === "on" ? { relay: true } : {}),
  };
}

networkNodeRoutes.post("/networks/:id/nodes", async (c) => {
  const values = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const created = await c.var.api.POST("/api/v1/nodes", { body: createNodeBody(loaded.network.id, values) });
  if (created.data) return c.redirect(`/networks/${loaded.network.id}/nodes?added=${created.data.id}`, 303);
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

/** Access-policy tags (owners and admins; the API refuses a member tagging their own device). */
networkNodeRoutes.post("/networks/:id/nodes/:nodeId/tags", async (c) => {
  const { tags = "" } = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const nodeId = c.req.param("nodeId");
  const changed = await c.var.api.PATCH("/api/v1/nodes/{id}", { params: { path: { id: nodeId } }, body: { tags: tagsOf(tags) } });
  if (changed.data) return c.redirect(`/networks/${loaded.network.id}/nodes`, 303);
  return renderNodes(c, loaded, refusedBy(changed), undefined, { tags: { label: "Tags", field: tagsFieldOf(nodeId) } });
});

networkNodeRoutes.post("/networks/:id/nodes/:nodeId/delete", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const deleted = await c.var.api.DELETE("/api/v1/nodes/{id}", { params: { path: { id: c.req.param("nodeId") } } });
  if (deleted.response.ok) return c.redirect(`/networks/${loaded.network.id}/nodes`, 303);
  return renderNodes(c, loaded, refusedBy(deleted));
});

/**
 * The node's wg-quick file (the API's text/plain answer), saved as <name>.conf; PrivateKey is a placeholder.
 * While gateway nodes of the network await their agent's key the API leaves them out (a peer needs a key), so
 * the console puts a comment line above the API's bytes saying which are missing and why.
 */
networkNodeRoutes.get("/networks/:id/nodes/:nodeId/config", async (c) => {
  const id = c.req.param("nodeId");
  const node = await c.var.api.GET("/api/v1/nodes/{id}", { params: { path: { id } } });
  if (!node.data) return failure(c, node);
  const [config, nodes] = await Promise.all([
    c.var.api.GET("/api/v1/nodes/{id}/config", { params: { path: { id } }, ...asText }),
    c.var.api.GET("/api/v1/nodes", { params: { query: { networkId: node.data.networkId, limit: 200 } } }),
  ]);
  if (typeof config.data !== "string") return failure(c, config);
  const missing = awaitingAgent(nodes.data?.items ?? []).filter((name) => name !== node.data.name);
  const note =
    missing.length > 0
      ? `# Not in this file yet: ${missing.join(", ")} (awaiting their gateway agent's key). Download again once it runs.\n`
      : "";
  return attachment(c, note + config.data, `${node.data.name}.conf`);
});
