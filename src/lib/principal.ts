import type { Context } from "hono";
import { forbidden, unauthorized } from "./errors";
import type { AgentPrincipal, AppEnv, DevicePrincipal, ScimPrincipal, UserPrincipal } from "./types";

/**
 * Who the request acts for, narrowed to what the handler needs. The route's router already ran the one
 * middleware of its scheme (middleware/guarded-router.ts), so a mismatch here is a wiring mistake; it
 * still answers 401 (no principal of that kind) or 403 (an agent of the other kind), never a 500.
 */
type AnyContext = Pick<Context<AppEnv>, "var">;

export function userOf(c: AnyContext): UserPrincipal {
  const principal = c.var.principal;
  if (principal?.kind !== "user") throw unauthorized("A bearer access token is required");
  return principal;
}

/** The signed-in user when the request sent a token (enrolment, invite acceptance), else undefined. */
export function signedInUserOf(c: AnyContext): UserPrincipal | undefined {
  const principal = c.var.principal;
  return principal?.kind === "user" ? principal : undefined;
}

/** Device routes: the device itself or a user (its owner, a group manager). */
export function deviceOrUserOf(c: AnyContext): DevicePrincipal | UserPrincipal {
  const principal = c.var.principal;
  if (principal?.kind !== "device" && principal?.kind !== "user") throw unauthorized("A device credential or access token is required");
  return principal;
}

export function scimOf(c: AnyContext): ScimPrincipal {
  const principal = c.var.principal;
  if (principal?.kind !== "scim") throw unauthorized("A SCIM token is required");
  return principal;
}

export function agentOf(c: AnyContext): AgentPrincipal {
  const principal = c.var.principal;
  if (principal?.kind !== "agent") throw unauthorized("An agent credential is required");
  return principal;
}

/** A gateway manager's region: its credential names one. */
export function managerOf(c: AnyContext): AgentPrincipal & { regionId: string } {
  const agent = agentOf(c);
  const { regionId } = agent;
  if (agent.agentKind !== "gateway-manager" || regionId === null) throw forbidden("Only gateway-manager agents may call this");
  return { ...agent, regionId };
}

/** A gateway daemon's gateway: its credential names one. */
export function daemonOf(c: AnyContext): AgentPrincipal & { gatewayId: string } {
  const agent = agentOf(c);
  const { gatewayId } = agent;
  if (agent.agentKind !== "gateway-daemon" || gatewayId === null) throw forbidden("Only gateway-daemon agents may call this");
  return { ...agent, gatewayId };
}
