import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { NodeConfigSchema } from "../../schemas/node-config";
import { NodeSchema } from "../../schemas/nodes";
import { CreateNodeBody, NodeListQuery, UpdateNodeBody } from "./nodes.schemas";

const tags = ["Nodes"];
const params = IdParam("Node", "node");

export const create = createRoute({
  method: "post",
  path: "/nodes",
  tags,
  summary: "Add a node to a network (owner, admin); the server allocates its address",
  request: { body: jsonBody(CreateNodeBody) },
  responses: { 201: jsonResponse(NodeSchema, "Created"), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/nodes",
  tags,
  summary: "Nodes the caller can see, optionally of one network",
  request: { query: PageQuery.extend(NodeListQuery.shape) },
  responses: { 200: jsonResponse(pageOf(NodeSchema, "NodePage"), "A page of nodes"), ...errorResponses(401, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/nodes/{id}",
  tags,
  summary: "One node",
  request: { params },
  responses: { 200: jsonResponse(NodeSchema, "The node"), ...errorResponses(401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/nodes/{id}",
  tags,
  summary: "Change a node (owner, admin); a gateway hop keeps its role while a policy names it",
  request: { params, body: jsonBody(UpdateNodeBody) },
  responses: { 200: jsonResponse(NodeSchema, "Updated"), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/nodes/{id}",
  tags,
  summary: "Remove a node and free its address (owner, admin); 409 while a policy uses it as a hop",
  request: { params },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409) },
});

export const config = createRoute({
  method: "get",
  path: "/nodes/{id}/config",
  tags,
  summary: "Generated WireGuard configuration with routingIntent[]",
  description: "JSON by default; with `Accept: text/plain` only the wg-quick text. The PrivateKey line is a placeholder.",
  request: { params },
  responses: {
    200: {
      description: "The node's configuration",
      content: { "application/json": { schema: NodeConfigSchema }, "text/plain": { schema: z.string() } },
    },
    ...errorResponses(401, 404),
  },
});
