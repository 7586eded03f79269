import type { Config } from "../../lib/env";
import type { Mailer, MailMessage } from "./mail.types";

/**
 * Production transport: one JSON POST per message with a bearer token. The body is Resend's
 * `POST /emails` shape ({ from, to: [..], subject, text }), which the default MAIL_HTTP_URL points at;
 * any relay accepting that shape works (docs/identity.md, "Mail").
 */
export class HttpMailTransport implements Mailer {
  constructor(private readonly config: Config) {}

  async send(message: MailMessage): Promise<void> {
    if (!this.config.MAIL_HTTP_TOKEN) throw new Error("MAIL_TRANSPORT=http needs the MAIL_HTTP_TOKEN secret");
    const response = await fetch(this.config.MAIL_HTTP_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${this.config.MAIL_HTTP_TOKEN}` },
      body: JSON.stringify({ from: this.config.MAIL_FROM, to: [message.to], subject: message.subject, text: message.text }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) {
      // The provider's answer may echo the message; log only the status.
      throw new Error(`mail relay answered ${response.status}`);
    }
  }
}
