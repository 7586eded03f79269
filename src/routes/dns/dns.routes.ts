import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { DnsRecordBody, DnsRecordSchema } from "./dns.schemas";

const tags = ["DNS"];
const recordParams = IdParam("DNS record", "dns");
const networkParams = IdParam("Network", "net");

export const create = createRoute({
  method: "post",
  path: "/networks/{id}/dns/records",
  tags,
  summary: "Create a DNS record (owner, admin); 409 beside a CNAME or for an exact duplicate",
  request: { params: networkParams, body: jsonBody(DnsRecordBody) },
  responses: { 201: jsonResponse(DnsRecordSchema, "Created"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/networks/{id}/dns/records",
  tags,
  summary: "DNS records of a network (manual ones)",
  request: { params: networkParams, query: PageQuery },
  responses: { 200: jsonResponse(pageOf(DnsRecordSchema, "DnsRecordPage"), "A page of records"), ...errorResponses(401, 404, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/dns/records/{id}",
  tags,
  summary: "One DNS record",
  request: { params: recordParams },
  responses: { 200: jsonResponse(DnsRecordSchema, "The record"), ...errorResponses(401, 404) },
});

export const replace = createRoute({
  method: "put",
  path: "/dns/records/{id}",
  tags,
  summary: "Replace a DNS record (owner, admin)",
  request: { params: recordParams, body: jsonBody(DnsRecordBody) },
  responses: { 200: jsonResponse(DnsRecordSchema, "Updated"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/dns/records/{id}",
  tags,
  summary: "Delete a DNS record (owner, admin)",
  request: { params: recordParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});

const artifact = (path: string, summary: string) =>
  createRoute({
    method: "get",
    path,
    tags,
    summary,
    description: "text/plain, a pure function of the record set and the domain. Strong ETag; If-None-Match → 304.",
    request: { params: networkParams },
    responses: {
      200: { description: "The artifact", content: { "text/plain": { schema: z.string() } } },
      304: { description: "Unchanged since the ETag sent" },
      ...errorResponses(401, 404),
    },
  });

export const corefile = artifact("/networks/{id}/dns/corefile", "CoreDNS configuration for the network's zone");
export const zonefile = artifact("/networks/{id}/dns/zonefile", "The network's zone as an RFC 1035 master file");
