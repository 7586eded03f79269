import type { AuditContext } from "../audit/audit-trail";

/**
 * Sign-in routes (login, MFA verify, OAuth callback, refresh, invite acceptance) run before anyone is
 * authenticated: the account they sign in is the audit row's actor (docs/audit.md). A caller that was
 * authenticated already stays the actor.
 */
export const signedInAs = (audit: AuditContext, userId: string): AuditContext =>
  audit.actor.type === "anonymous" ? { ...audit, actor: { type: "user", id: userId } } : audit;
