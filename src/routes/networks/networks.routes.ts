import { createRoute } from "@hono/zod-openapi";
import { WriterStatsSchema } from "./writer-stats.schemas";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
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
  tags,
  summary: "Create a network in a group (owner, admin)",
  description: "The CIDR is normalised; it may not overlap another network of the same group (409), nor reuse a name there.",
  request: { body: jsonBody(CreateNetworkBody) },
  responses: { 201: jsonResponse(NetworkSchema, "Created"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/networks",
  tags,
  summary: "Networks the caller can see",
  request: { query: PageQuery.extend(NetworkListQuery.shape) },
  responses: { 200: jsonResponse(pageOf(NetworkSchema, "NetworkPage"), "A page of networks"), ...errorResponses(401, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/networks/{id}",
  tags,
  summary: "One network",
  request: { params },
  responses: { 200: jsonResponse(NetworkSchema, "The network"), ...errorResponses(401, 404) },
});

const updateResponses = { 200: jsonResponse(NetworkSchema, "Updated"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) };

export const patch = createRoute({
  method: "patch",
  path: "/networks/{id}",
  tags,
  summary: "Change some fields of a network (owner, admin)",
  request: { params, body: jsonBody(PatchNetworkBody) },
  responses: updateResponses,
});

export const put = createRoute({
  method: "put",
  path: "/networks/{id}",
  tags,
  summary: "Replace a network's editable fields (owner, admin)",
  request: { params, body: jsonBody(PutNetworkBody) },
  responses: updateResponses,
});

export const remove = createRoute({
  method: "delete",
  path: "/networks/{id}",
  tags,
  summary: "Delete a network (owner, admin); refused while it holds nodes",
  request: { params },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409) },
});

export const runtimeStatus = createRoute({
  method: "get",
  path: "/networks/{id}/runtime-status",
  tags,
  summary: "Routing and DNS: desired revision versus what is applied",
  request: { params },
  responses: { 200: jsonResponse(RuntimeStatusSchema, "The status"), ...errorResponses(401, 404) },
});

export const writerStats = createRoute({
  method: "get",
  path: "/networks/{id}/writer",
  tags,
  summary: "Platform admins: the network writer's memory and its D1 cost since it started (rows as D1 reports them)",
  request: { params },
  responses: { 200: jsonResponse(WriterStatsSchema, "The writer's figures"), ...errorResponses(401, 403, 404) },
});
