import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";

export const DevMailSchema = z
  .object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    createdAt: Timestamp,
  })
  .openapi("DevMail");

export const DevMailQuery = z.object({
  to: z.email().max(254),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export const presentDevMail = (row: { id: string; recipient: string; subject: string; text: string; createdAt: string }) => ({
  id: row.id,
  to: row.recipient,
  subject: row.subject,
  text: row.text,
  createdAt: row.createdAt,
});
