import { type Context, Hono } from "hono";
import { json, type Schema } from "../../../client/index.ts";
import { getConfig } from "../../lib/env";
import { formFields, worded } from "../form";
import { matches, searchWords } from "../list-search";
import { chainOf } from "../pages/chain-model";
import { POOL_FIELDS, POOL_SENTENCES } from "../pages/gateway-pools";
import { EditPolicyPage, NetworkPoliciesPage } from "../pages/network-policies";
import { hopChoices, POLICY_FIELDS, pathOf, policyValues } from "../pages/policy-form";
import type { SignedInEnv } from "../types";
import { failure, type LoadedNetwork, loadNetwork, type Refused, refusedBy } from "./network-context";

/** /networks/:id/policies: each via_gateway policy with its chain picture; create, edit, delete; routing intent. */
export const networkPolicyRoutes = new Hono<SignedInEnv>();

type C = Context<SignedInEnv>;

/** Everything the section reads: policies (each with its status), pools, nodes (names, hop choices). */
async function readSection(c: C, networkId: string) {
  const path = { params: { path: { id: networkId } } };
  const [policies, pools, nodes] = await Promise.all([
    c.var.api.GET("/api/v1/networks/{id}/routing-policies", { params: { path: { id: networkId }, query: { limit: 200 } } }),
    c.var.api.GET("/api/v1/networks/{id}/gateway-pools", path),
    c.var.api.GET("/api/v1/nodes", { params: { query: { networkId, limit: 200 } } }),
  ]);
  if (!policies.data) return { failed: policies };
  if (!pools.data) return { failed: pools };
  if (!nodes.data) return { failed: nodes };
  const names = new Map<string, string>([
    ...nodes.data.items.map((node) => [node.id, node.name] as const),
    ...pools.data.items.map((pool) => [pool.id, pool.name] as const),
  ]);
  return { policies: policies.data.items, pools: pools.data.items, nodes: nodes.data.items, names };
}

export async function renderPolicies(c: C, loaded: LoadedNetwork, refused?: Refused & { valuesOf?: "policy" | "pool" }) {
  const read = await readSection(c, loaded.network.id);
  if ("failed" in read) return failure(c, read.failed as { error?: unknown; response: Response });
  const { nodes, names } = read;
  // The section reads a network's policies and pools whole (up to 200 and 100): a search filters what was read.
  const words = searchWords(c.req.query("q"));
  const named = (ids: readonly string[]) => ids.map((id) => names.get(id));
  const policies = words
    ? read.policies.filter((policy) => matches(words, policy.name, policy.destinationCidr, ...named(policy.gatewayPath)))
    : read.policies;
  const pools = words
    ? read.pools.filter((pool) => matches(words, pool.name, ...named(pool.members.map((member) => member.nodeId))))
    : read.pools;
  const statuses = await Promise.all(
    policies.map((policy) => c.var.api.GET("/api/v1/routing-policies/{id}/status", { params: { path: { id: policy.id } } })),
  );
  // Another member's device has no config to read here (the API answers 404): it is not offered.
  const intentNodes = nodes.filter((node) => !node.redacted);
  const chosenNode = intentNodes.find((node) => node.id === c.req.query("node"));
  const config = chosenNode ? await c.var.api.GET("/api/v1/nodes/{id}/config", { params: { path: { id: chosenNode.id } } }) : undefined;
  const intent = config?.data ? json(config.data).routingIntent : undefined;
  const pooled = new Set(read.pools.flatMap((pool) => pool.members.map((member) => member.nodeId)));
  const page = (
    <NetworkPoliciesPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      {...loaded}
      policies={policies.map((policy, index) => ({ policy, chain: chainOf(policy, statuses[index]?.data, names) }))}
      choices={hopChoices(nodes, read.pools)}
      maxHops={getConfig(c.env).ROUTING_POLICY_MAX_HOPS}
      pools={{ pools, names, free: nodes.filter((node) => node.roles.includes("gateway") && !pooled.has(node.id)) }}
      intent={{ nodes: intentNodes, names, chosen: chosenNode && intent ? { node: chosenNode, intent } : undefined }}
      error={refused && worded(refused.error, wording(c, names, refused.values, refused.valuesOf))}
      values={refused?.values}
      valuesOf={refused?.valuesOf}
      created={policies.find((policy) => policy.id === c.req.query("created"))?.name}
      search={words ? { q: c.req.query("q")!.trim(), searched: read.policies.length + read.pools.length } : undefined}
    />
  );
  return c.html(page, refused?.status ?? 200);
}

/** How a refusal of this section reads: node and pool names, hops as numbered in the submitted path. */
const wording = (c: C, names: ReadonlyMap<string, string>, values: Record<string, string> = {}, form?: "policy" | "pool") =>
  form === "pool"
    ? { names, fields: POOL_FIELDS, sentences: POOL_SENTENCES }
    : { names, path: pathOf(values, getConfig(c.env).ROUTING_POLICY_MAX_HOPS), fields: POLICY_FIELDS };

const policyBody = (values: Record<string, string>, maxHops: number): Schema<"RoutingPolicyInput"> => ({
  name: values.name ?? "",
  type: "via_gateway",
  destinationCidr: (values.destinationCidr ?? "").trim(),
  gatewayPath: pathOf(values, maxHops),
});

networkPolicyRoutes.get("/networks/:id/policies", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  return renderPolicies(c, loaded);
});

networkPolicyRoutes.post("/networks/:id/policies", async (c) => {
  const values = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const created = await c.var.api.POST("/api/v1/networks/{id}/routing-policies", {
    params: { path: { id: loaded.network.id } },
    body: policyBody(values, getConfig(c.env).ROUTING_POLICY_MAX_HOPS),
  });
  if (created.data) return c.redirect(`/networks/${loaded.network.id}/policies?created=${created.data.id}`, 303);
  return renderPolicies(c, loaded, { ...refusedBy(created, values), valuesOf: "policy" });
});

async function renderEdit(c: C, loaded: LoadedNetwork, refused?: Refused) {
  const policy = await c.var.api.GET("/api/v1/routing-policies/{id}", { params: { path: { id: c.req.param("policyId") ?? "" } } });
  if (!policy.data) return failure(c, policy);
  const read = await readSection(c, loaded.network.id);
  if ("failed" in read) return failure(c, read.failed as { error?: unknown; response: Response });
  const page = (
    <EditPolicyPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      network={loaded.network}
      policy={policy.data}
      choices={hopChoices(read.nodes, read.pools)}
      maxHops={getConfig(c.env).ROUTING_POLICY_MAX_HOPS}
      values={refused?.values ?? policyValues(policy.data)}
      error={refused && worded(refused.error, wording(c, read.names, refused.values))}
    />
  );
  return c.html(page, refused?.status ?? 200);
}

networkPolicyRoutes.get("/networks/:id/policies/:policyId/edit", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  return renderEdit(c, loaded);
});

networkPolicyRoutes.post("/networks/:id/policies/:policyId/edit", async (c) => {
  const values = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const replaced = await c.var.api.PUT("/api/v1/routing-policies/{id}", {
    params: { path: { id: c.req.param("policyId") } },
    body: policyBody(values, getConfig(c.env).ROUTING_POLICY_MAX_HOPS),
  });
  if (replaced.data) return c.redirect(`/networks/${loaded.network.id}/policies`, 303);
  return renderEdit(c, loaded, refusedBy(replaced, values));
});

networkPolicyRoutes.post("/networks/:id/policies/:policyId/delete", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const deleted = await c.var.api.DELETE("/api/v1/routing-policies/{id}", { params: { path: { id: c.req.param("policyId") } } });
  if (deleted.response.ok) return c.redirect(`/networks/${loaded.network.id}/policies`, 303);
  return renderPolicies(c, loaded, refusedBy(deleted));
});
