import { createRoute, z } from "@hono/zod-openapi";
import { WriterStatsSchema } from "./writer-stats.schemas";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent, Timestamp } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import {
  CreateNetworkBody,
  NetworkListQuery,
  NetworkSchema,
  PatchNetworkBody,
  PutNetworkBody,
  RuntimeStatusSchema,
} from "./networks.schemas";

const tags = ["Networks"];
const params = IdParam("Network", "net");

export const create = createRoute({
  method: "post",
  path: "/networks",
  operationId: "createNetwork",
  tags,
  summary: "Create a network in a group (owner, admin)",
  description:
    "Owners and admins of the group named by groupId (platform admins act as owners). " +
    "The CIDR is normalised; it may not overlap another network of the same group (409), nor reuse a name there.",
  request: { body: jsonBody(CreateNetworkBody) },
  responses: { 201: jsonResponse(NetworkSchema, "Created"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/networks",
  operationId: "listNetworks",
  tags,
  summary: "Networks the caller can see",
  description:
    "Any signed-in user: the networks of every group they belong to (any role); platform admins see all. Filter by group with groupId.",
  request: { query: PageQuery.extend(NetworkListQuery.shape) },
  responses: { 200: jsonResponse(pageOf(NetworkSchema, "NetworkPage"), "A page of networks"), ...errorResponses(401, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/networks/{id}",
  operationId: "getNetwork",
  tags,
  summary: "One network",
  description: "Members of the network's group (viewer and up) and platform admins; others get 404.",
  request: { params },
  responses: { 200: jsonResponse(NetworkSchema, "The network"), ...errorResponses(401, 404, 422) },
});

const updateResponses = { 200: jsonResponse(NetworkSchema, "Updated"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) };

export const patch = createRoute({
  method: "patch",
  path: "/networks/{id}",
  operationId: "updateNetwork",
  tags,
  summary: "Change some fields of a network (owner, admin)",
  description:
    "Group owners and admins. Only the fields sent change. 409: a name another network of the group uses, a CIDR that overlaps one of theirs, a CIDR change while the network holds nodes, or a dnsDomain that would push a node or record name past 253 characters.",
  request: { params, body: jsonBody(PatchNetworkBody) },
  responses: updateResponses,
});

export const put = createRoute({
  method: "put",
  path: "/networks/{id}",
  operationId: "replaceNetwork",
  tags,
  summary: "Replace a network's editable fields (owner, admin)",
  description: "Group owners and admins. Every editable field is replaced, with the same rules as PATCH.",
  request: { params, body: jsonBody(PutNetworkBody) },
  responses: updateResponses,
});

export const remove = createRoute({
  method: "delete",
  path: "/networks/{id}",
  operationId: "deleteNetwork",
  tags,
  summary: "Delete a network (owner, admin); refused while it holds nodes",
  description: "Group owners and admins. 409 while the network still holds nodes: remove them (and their devices) first.",
  request: { params },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409, 422) },
});

export const runtimeStatus = createRoute({
  method: "get",
  path: "/networks/{id}/runtime-status",
  operationId: "getNetworkRuntimeStatus",
  tags,
  summary: "Routing and DNS: desired revision versus what is applied",
  description:
    "Members of the network's group (viewer and up). Compares the network's desired routing and DNS revisions with what each node and gateway daemon last reported applying.",
  request: { params },
  responses: { 200: jsonResponse(RuntimeStatusSchema, "The status"), ...errorResponses(401, 404, 422) },
});

const NamedNode = z.object({ nodeId: z.string(), name: z.string() });
const RelayedPair = z
  .object({
    a: NamedNode,
    b: NamedNode,
    relay: NamedNode,
    movedAt: Timestamp.openapi({ description: "When the pair went onto the relay" }),
    holdSeconds: z.number().int().openapi({ description: "The least it stays there before going back to direct (docs/nat.md)" }),
  })
  .openapi("RelayedPair");

export const relayedPairs = createRoute({
  method: "get",
  path: "/networks/{id}/relayed-pairs",
  operationId: "listNetworkRelayedPairs",
  tags,
  summary: "Pairs of nodes the server moved onto a relay because they found no direct path (docs/nat.md)",
  description:
    "Owners and admins of the network's group, and platform admins (403 below): the pairs name devices of every member. At most one entry per pair of nodes.",
  request: { params },
  responses: {
    200: jsonResponse(z.object({ items: z.array(RelayedPair) }).openapi("RelayedPairs"), "The relayed pairs"),
    ...errorResponses(401, 403, 404, 422),
  },
});

export const writerStats = createRoute({
  method: "get",
  path: "/networks/{id}/writer",
  operationId: "getNetworkWriterStats",
  tags,
  summary: "Platform admins: the network writer's memory and its D1 cost since it started (rows as D1 reports them)",
  description:
    "Platform admins only (403 otherwise). The network's single writer (a Durable Object) reports its in-memory state and the D1 reads and writes it made since it started.",
  request: { params },
  responses: { 200: jsonResponse(WriterStatsSchema, "The writer's figures"), ...errorResponses(401, 403, 404, 422) },
});
