import { desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { devMail } from "../../db/schema";
import { newId, nowIso } from "../../lib/ids";
import type { Mailer, MailMessage } from "./mail.types";

/** Development transport: messages land in the dev_mail table, readable through GET /dev/mail. */
export class DevMailTransport implements Mailer {
  constructor(private readonly db: Db) {}

  async send(message: MailMessage): Promise<void> {
    await this.db.insert(devMail).values({
      id: newId("mail"),
      recipient: message.to.toLowerCase(),
      subject: message.subject,
      text: message.text,
      createdAt: nowIso(),
    });
  }
}

/** Newest first; the dev flow reads the latest token for an address. */
export const readDevMail = (db: Db, to: string, limit: number) =>
  db
    .select()
    .from(devMail)
    .where(eq(devMail.recipient, to.toLowerCase()))
    .orderBy(desc(devMail.createdAt), desc(devMail.id))
    .limit(limit)
    .all();
