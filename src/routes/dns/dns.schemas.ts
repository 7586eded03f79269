import { z } from "@hono/zod-openapi";
import type { dnsRecords } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
import { RECORD_TYPES, TTL_DEFAULT, TTL_MAX, TTL_MIN } from "../../core/dns";

export const DnsRecordSchema = z
  .object({
    id: z.string().openapi({ example: "dns_..." }),
    networkId: z.string(),
    name: z.string().openapi({ description: "Relative to the network's dnsDomain; @ is the apex" }),
    type: z.enum(RECORD_TYPES),
    value: z.string(),
    ttl: z.number().int(),
    revision: z.number().int().openapi({ description: "Network DNS revision at which the record last changed" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("DnsRecord");

export const DnsRecordBody = z
  .strictObject({
    name: z.string().max(253).openapi({ example: "db", description: "A label (or labels) relative to the domain, or @" }),
    type: z.enum(RECORD_TYPES).openapi({ description: "A (IPv4), AAAA (IPv6), CNAME (a host name), TXT (text)" }),
    value: z.string().max(8192).openapi({ example: "10.20.0.40" }),
    ttl: z
      .number()
      .int()
      .min(TTL_MIN)
      .max(TTL_MAX)
      .optional()
      .openapi({ description: `Seconds, default ${TTL_DEFAULT}` }),
  })
  .openapi("DnsRecordInput");

export const presentRecord = (row: typeof dnsRecords.$inferSelect): z.infer<typeof DnsRecordSchema> => ({
  id: row.id,
  networkId: row.networkId,
  name: row.name,
  type: row.type,
  value: row.value,
  ttl: row.ttl,
  revision: row.revision,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
