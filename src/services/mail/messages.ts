import type { Config } from "../../lib/env";
import type { MailMessage } from "./mail.types";

/** A front-end link when FRONTEND_URL is set; the token itself in any case (the CLI and curl use it). */
const link = (config: Config, path: string, token: string) =>
  config.FRONTEND_URL ? `\nOpen ${new URL(`${path}?token=${encodeURIComponent(token)}`, config.FRONTEND_URL)}\n` : "";

export function passwordResetMessage(config: Config, to: string, token: string): MailMessage {
  const minutes = Math.round(config.PASSWORD_RESET_TTL_SECONDS / 60);
  return {
    to,
    subject: "Reset your password",
    text: [
      "Someone asked to reset the password of this account. If it was not you, ignore this message.",
      link(config, "/reset-password", token),
      `Reset token (valid ${minutes} minutes, once): ${token}`,
      'POST /api/v1/auth/password-reset/confirm {"token": "...", "newPassword": "..."}',
    ].join("\n"),
  };
}

export function inviteMessage(config: Config, to: string, groupName: string, role: string, token: string): MailMessage {
  const days = Math.round(config.INVITE_TTL_SECONDS / 86_400);
  return {
    to,
    // A fixed subject: the group's name is a member's free text and never goes into a header.
    subject: "You are invited to a group",
    text: [
      `You are invited to the group ${JSON.stringify(groupName)} as ${role}.`,
      link(config, "/accept-invite", token),
      `Invite token (valid ${days} days, once): ${token}`,
      'POST /api/v1/auth/invites/accept {"token": "...", "password": "..."}',
    ].join("\n"),
  };
}
