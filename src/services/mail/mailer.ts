import type { Db } from "../../db/client";
import type { Config } from "../../lib/env";
import { DevMailTransport } from "./dev-transport";
import { assertHeaderSafeAddress, headerText } from "./header-text";
import { HttpMailTransport } from "./http-transport";
import type { Mailer } from "./mail.types";

/** MAIL_TRANSPORT=none: nothing is configured, so say so in the logs (never the message: it holds a token). */
const droppingMailer: Mailer = {
  async send(message) {
    console.warn(JSON.stringify({ mail: "dropped", reason: "MAIL_TRANSPORT is none", subject: message.subject }));
  },
};

/** Every transport gets header-safe subjects and recipients, whatever text a message was built from. */
const withSafeHeaders = (transport: Mailer): Mailer => ({
  send(message) {
    assertHeaderSafeAddress(message.to);
    return transport.send({ ...message, subject: headerText(message.subject) });
  },
});

function transportFor(config: Config, db: Db): Mailer {
  switch (config.MAIL_TRANSPORT) {
    case "dev":
      return new DevMailTransport(db);
    case "http":
      return new HttpMailTransport(config);
    default:
      return droppingMailer;
  }
}

export const createMailer = (config: Config, db: Db): Mailer => withSafeHeaders(transportFor(config, db));
