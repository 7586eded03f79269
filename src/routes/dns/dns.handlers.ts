import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { unwrap } from "../../lib/write-result";
import { auditOf } from "../../middleware/audit";
import { dnsRecordAccess, networkAccess } from "../../services/access";
import { listDnsRecords } from "../../services/networks/views/pages";
import { networkWriter } from "../../services/networks/writer/network-writer";
import type * as routes from "./dns.routes";
import { normaliseRecord, presentRecord } from "./dns.schemas";

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { network } = await networkAccess(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  const record = normaliseRecord(c.req.valid("json"), network.dnsDomain);
  return c.json(presentRecord(await unwrap(networkWriter(c.env, network.id).createDnsRecord(network.id, record, auditOf(c, 201)))), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { network } = await networkAccess(c.var.db, userOf(c), c.req.valid("param").id, "read");
  const page = c.req.valid("query");
  return c.json(toPage(await listDnsRecords(c.var.db, network.id, page), page.limit, presentRecord), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { record } = await dnsRecordAccess(c.var.db, userOf(c), c.req.valid("param").id, "read");
  return c.json(presentRecord(record), 200);
};

export const replace: AppRouteHandler<typeof routes.replace> = async (c) => {
  const { record, network } = await dnsRecordAccess(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  const next = normaliseRecord(c.req.valid("json"), network.dnsDomain);
  return c.json(
    presentRecord(await unwrap(networkWriter(c.env, network.id).replaceDnsRecord(network.id, record.id, next, auditOf(c, 200)))),
    200,
  );
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { record, network } = await dnsRecordAccess(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  await unwrap(networkWriter(c.env, network.id).deleteDnsRecord(network.id, record.id, auditOf(c, 204)));
  return c.body(null, 204);
};
