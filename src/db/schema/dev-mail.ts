import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Outbox of the development mail transport (MAIL_TRANSPORT=dev); production never writes here. */
export const devMail = sqliteTable(
  "dev_mail",
  {
    id: text().primaryKey(),
    recipient: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    createdAt: text().notNull(),
  },
  (table) => [index("dev_mail_recipient_idx").on(table.recipient, table.createdAt)],
);
