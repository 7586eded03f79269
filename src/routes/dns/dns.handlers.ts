import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { unwrap } from "../../lib/write-result";
import { auditOf } from "../../middleware/audit";
import { authorizeDnsRecord, authorizeNetwork } from "../../services/authorization";
import { listDnsRecords } from "../../services/networks/views/pages";
import { networkWriter } from "../../objects/network/client";
import { networkForWrite, networkOfDnsRecordFor } from "../../services/networks/write-routing";
import type * as routes from "./dns.routes";
import { presentRecord } from "./dns.schemas";

/** Writes: the network's writer authorises the caller, session included, and validates the record against its domain. */
export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const caller = userOf(c);
  const networkId = await networkForWrite(c.var.db, c.req.valid("param").id, caller);
  const writer = networkWriter(c.env, networkId);
  return c.json(presentRecord(await unwrap(writer.createDnsRecord(networkId, c.req.valid("json"), auditOf(c, 201), caller))), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "read");
  const page = c.req.valid("query");
  return c.json(toPage(await listDnsRecords(c.var.db, network.id, page), page.limit, presentRecord), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { record } = await authorizeDnsRecord(c.var.db, userOf(c), c.req.valid("param").id, "read");
  return c.json(presentRecord(record), 200);
};

export const replace: AppRouteHandler<typeof routes.replace> = async (c) => {
  const { id } = c.req.valid("param");
  const caller = userOf(c);
  const networkId = await networkOfDnsRecordFor(c.var.db, id, caller);
  const writer = networkWriter(c.env, networkId);
  return c.json(presentRecord(await unwrap(writer.replaceDnsRecord(networkId, id, c.req.valid("json"), auditOf(c, 200), caller))), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { id } = c.req.valid("param");
  const caller = userOf(c);
  const networkId = await networkOfDnsRecordFor(c.var.db, id, caller);
  await unwrap(networkWriter(c.env, networkId).deleteDnsRecord(networkId, id, auditOf(c, 204), caller));
  return c.body(null, 204);
};
