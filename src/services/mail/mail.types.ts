export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Everything that sends mail goes through this; transports are chosen by MAIL_TRANSPORT. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
