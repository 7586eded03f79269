import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { HEADER_REFS, IfNoneMatchHeader, notModified } from "../../lib/openapi-headers";
import { PageQuery, pageOf } from "../../lib/pagination";
import { DnsRecordBody, DnsRecordSchema } from "./dns.schemas";

const tags = ["DNS"];
const recordParams = IdParam("DNS record", "dns");
const networkParams = IdParam("Network", "net");

export const create = createRoute({
  method: "post",
  path: "/networks/{id}/dns/records",
  operationId: "createDnsRecord",
  tags,
  summary: "Create a DNS record (owner, admin); 409 beside a CNAME or for an exact duplicate",
  description:
    "Owners and admins of the network's group. The name is relative to the network's dnsDomain (`@`: the apex). 409 beside a CNAME of the same name, for a CNAME at the apex or on the name server host, for an exact duplicate, or past the network's record limit.",
  request: { params: networkParams, body: jsonBody(DnsRecordBody) },
  responses: { 201: jsonResponse(DnsRecordSchema, "Created"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/networks/{id}/dns/records",
  operationId: "listDnsRecords",
  tags,
  summary: "DNS records of a network (manual ones)",
  description: "Members of the network's group (viewer and up): the manual records (node names are not listed).",
  request: { params: networkParams, query: PageQuery },
  responses: { 200: jsonResponse(pageOf(DnsRecordSchema, "DnsRecordPage"), "A page of records"), ...errorResponses(401, 404, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/dns/records/{id}",
  operationId: "getDnsRecord",
  tags,
  summary: "One DNS record",
  description: "Members of the network's group (viewer and up).",
  request: { params: recordParams },
  responses: { 200: jsonResponse(DnsRecordSchema, "The record"), ...errorResponses(401, 404, 422) },
});

export const replace = createRoute({
  method: "put",
  path: "/dns/records/{id}",
  operationId: "replaceDnsRecord",
  tags,
  summary: "Replace a DNS record (owner, admin)",
  description: "Owners and admins of the network's group; same rules as creation.",
  request: { params: recordParams, body: jsonBody(DnsRecordBody) },
  responses: { 200: jsonResponse(DnsRecordSchema, "Updated"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/dns/records/{id}",
  operationId: "deleteDnsRecord",
  tags,
  summary: "Delete a DNS record (owner, admin)",
  description: "Owners and admins of the network's group. The zone's DNS revision moves on; gateways serving DNS pick it up.",
  request: { params: recordParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 422) },
});

const artifact = (path: string, operationId: string, summary: string) =>
  createRoute({
    method: "get",
    path,
    operationId,
    tags,
    summary,
    description:
      "Members of the network's group (viewer and up). text/plain, a pure function of the network's records, nodes and domain. " +
      "Strong ETag: poll with If-None-Match and get 304 (no body) until it changes.",
    request: { params: networkParams, headers: IfNoneMatchHeader },
    responses: {
      200: {
        description: "The artifact",
        headers: { ETag: HEADER_REFS.etag },
        content: { "text/plain": { schema: z.string() } },
      },
      304: notModified,
      ...errorResponses(401, 404, 422),
    },
  });

export const corefile = artifact("/networks/{id}/dns/corefile", "getDnsCorefile", "CoreDNS configuration for the network's zone");
export const zonefile = artifact("/networks/{id}/dns/zonefile", "getDnsZonefile", "The network's zone as an RFC 1035 master file");
