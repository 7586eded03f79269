import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, inArray } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { networks, nodes } from "../../db/schema";
import { createRouter } from "../../lib/create-router";
import { ApiError, domainError, notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { agentOfKind, requireAgent } from "../../middleware/agent-auth";
import { sha256 } from "../../services/auth/tokens";
import { corefileFor, matchesEtag, renderDnsArtifact } from "../../services/networks/views/dns-artifacts";
import { loadNodeConfigs } from "../../services/networks/views/node-configs";
import { replaceObservations } from "../../services/networks/operations/observations";
import { HeartbeatBody } from "../../schemas/heartbeat";
import { NodeConfigSchema } from "../../schemas/node-config";

const tags = ["Agents"];
const asDaemon = { middleware: [requireAgent, agentOfKind("gateway-daemon")] as MiddlewareHandler<AppEnv>[], security: [{ bearerAuth: [] }] };

const DesiredState = z.object({
  gatewayId: z.string(),
  nodes: z.array(z.object({
    networkId: z.string(),
    nodeId: z.string(),
    config: NodeConfigSchema,
    dns: z.object({ domain: z.string(), revision: z.number().int(), corefile: z.string(), zonefile: z.string() }),
  })),
}).openapi("GatewayDesiredState");

const ReportBody = z.strictObject({
  nodes: z.array(z.strictObject({
    nodeId: z.string().min(1).max(64),
    appliedRoutingRevision: z.number().int().min(0),
    appliedDnsRevision: z.number().int().min(0).nullable().default(null),
    peers: HeartbeatBody.shape.peers,
  })).min(1).max(90).openapi({ description: "At most 90 nodes a report (D1 binds at most 100 parameters a statement)" }),
}).openapi("GatewayReport");

const ReportAck = z.object({
  nodes: z.array(z.object({ nodeId: z.string(), desiredRoutingRevision: z.number().int(), desiredDnsRevision: z.number().int(), configChanged: z.boolean() })),
}).openapi("GatewayReportAck");

const desired = createRoute({
  method: "get", path: "/agents/me/desired-state", tags, ...asDaemon,
  summary: "Config, routingIntent, Corefile and zone for every gateway node this daemon runs (ETag; If-None-Match → 304)",
  responses: { 200: jsonResponse(DesiredState, "Desired state"), 304: { description: "Unchanged" }, ...errorResponses(401, 403) },
});
const report = createRoute({
  method: "post", path: "/agents/me/report", tags, ...asDaemon,
  summary: "Report applied routing/DNS revisions and tunnel counters of the gateway's nodes",
  request: { body: jsonBody(ReportBody) },
  responses: { 200: jsonResponse(ReportAck, "Acknowledged"), ...errorResponses(400, 401, 403, 404, 413, 415, 422) },
});

const servedNodes = (c: { var: AppEnv["Variables"] }) => c.var.db
  .select({ nodeId: nodes.id, networkId: networks.id, cidr: networks.cidr, routingRevision: networks.routingRevision, dnsRevision: networks.dnsRevision, dnsDomain: networks.dnsDomain })
  .from(nodes).innerJoin(networks, eq(networks.id, nodes.networkId))
  .where(and(eq(nodes.gatewayId, c.var.agent.gatewayId!), eq(nodes.isGateway, true))).all();

/**
 * Every routing or DNS change bumps its network's revision, so (node, revisions) names the desired
 * state exactly: a poll that matches answers 304 after one query, before anything is rendered.
 */
const desiredHandler: AppRouteHandler<typeof desired> = async (c) => {
  const served = await servedNodes(c);
  const etag = `"${sha256(served.map((n) => `${n.nodeId}:${n.routingRevision}:${n.dnsRevision}`).sort().join(","))}"`;
  c.header("ETag", etag);
  if (matchesEtag(c.req.header("if-none-match"), etag)) return c.body(null, 304);
  // One state read and one zone render per network (not per node), networks read concurrently.
  const byNetwork = new Map<string, typeof served>();
  for (const node of served) byNetwork.set(node.networkId, [...(byNetwork.get(node.networkId) ?? []), node]);
  const perNetwork = await Promise.all([...byNetwork].map(async ([networkId, members]) => {
    const read = await Promise.all([
      loadNodeConfigs(c.var.db, networkId, members.map((node) => node.nodeId)),
      renderDnsArtifact(c.var.db, { id: networkId, cidr: members[0]!.cidr, dnsDomain: members[0]!.dnsDomain }, "zonefile"),
    ]).catch((error: unknown) => {
      // The network was deleted since the first read: leave it out, keep the others.
      if (error instanceof ApiError && error.code === "not_found") return null;
      throw error;
    });
    if (!read) return [];
    const [configs, zone] = read;
    return members.flatMap((node) => {
      const config = configs.get(node.nodeId);
      // Removed between the two reads: the next poll's ETag no longer names it.
      if (!config) return [];
      return [{ networkId, nodeId: node.nodeId, config,
        dns: { domain: node.dnsDomain, revision: node.dnsRevision, corefile: corefileFor(node.dnsDomain), zonefile: zone.text } }];
    });
  }));
  const entries = perNetwork.flat();
  return c.json({ gatewayId: c.var.agent.gatewayId!, nodes: entries }, 200);
};

const reportHandler: AppRouteHandler<typeof report> = async (c) => {
  const { nodes: reports } = c.req.valid("json");
  const ids = reports.map((r) => r.nodeId);
  const known = await c.var.db.select({ id: nodes.id, networkId: nodes.networkId, routing: networks.routingRevision, dns: networks.dnsRevision })
    .from(nodes).innerJoin(networks, eq(networks.id, nodes.networkId))
    .where(and(inArray(nodes.id, ids), eq(nodes.gatewayId, c.var.agent.gatewayId!))).all();
  const byId = new Map(known.map((n) => [n.id, n]));
  const now = nowIso();
  const statements = reports.flatMap((r) => {
    const node = byId.get(r.nodeId);
    if (!node) throw notFound(`Node ${r.nodeId} on this gateway`);
    if (r.appliedRoutingRevision > node.routing || (r.appliedDnsRevision ?? 0) > node.dns) {
      throw domainError(`Node ${r.nodeId} reports revisions ahead of the network's (${node.routing}/${node.dns})`);
    }
    return [
      c.var.db.update(nodes).set({ appliedRoutingRevision: r.appliedRoutingRevision, appliedDnsRevision: r.appliedDnsRevision, lastSeenAt: now })
        .where(eq(nodes.id, r.nodeId)),
      ...replaceObservations(c.var.db, node.networkId, r.nodeId, r.peers, now),
    ];
  });
  await c.var.db.batch(statements as [typeof statements[number], ...typeof statements]);
  return c.json({ nodes: reports.map((r) => {
    const node = byId.get(r.nodeId)!;
    return { nodeId: r.nodeId, desiredRoutingRevision: node.routing, desiredDnsRevision: node.dns,
      configChanged: r.appliedRoutingRevision !== node.routing || r.appliedDnsRevision !== node.dns };
  }) }, 200);
};

export const agentDaemonRouter = createRouter().openapi(desired, desiredHandler).openapi(report, reportHandler);
