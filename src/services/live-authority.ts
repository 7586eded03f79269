import { sql, type SQL } from "drizzle-orm";
import { nowIso } from "../lib/ids";
import type { UserPrincipal } from "../lib/types";

/**
 * Conditions on someone's authority as it stands when a statement runs, for conditional writes
 * (db/insert-where.ts, UPDATE … WHERE). A write that carries one inside its own batch cannot be committed
 * for a user whose access ended first: removal, disabling, deletion and demotion commit their change and
 * only then remove devices (services/networks/device-lifecycle.ts), so whatever interleaving, a device either
 * exists when that removal looks for it or is refused by its own condition.
 */

/** Roles that hold devices: viewers read, they do not join networks. */
export const DEVICE_HOLDING_ROLES = ["member", "admin", "owner"] as const;

const roleList = (roles: readonly string[]) => sql.raw(roles.map((role) => `'${role}'`).join(", "));

/**
 * The user exists, is not disabled, and is a platform admin or holds one of `roles` in the group of the
 * network. `userId` and `networkId` may be values or SQL (a column of the enclosing statement).
 */
export function holdsRoleInNetwork(userId: SQL | string, networkId: SQL | string, roles: readonly string[]): SQL {
  return sql`exists (select 1 from users u where u.id = ${userId} and u.disabled_at is null and (u.platform_role = 'admin'
    or exists (select 1 from memberships m join networks n on n.group_id = m.group_id
      where n.id = ${networkId} and m.user_id = u.id and m.role in (${roleList(roles)}))))`;
}

/** The user exists, is not disabled, and is a platform admin or holds one of `roles` in the group. */
export function holdsRoleInGroup(userId: string, groupId: string, roles: readonly string[]): SQL {
  return sql`exists (select 1 from users u where u.id = ${userId} and u.disabled_at is null and (u.platform_role = 'admin'
    or exists (select 1 from memberships m where m.group_id = ${groupId} and m.user_id = u.id and m.role in (${roleList(roles)}))))`;
}

/**
 * The session is live as the authentication middleware checks it (middleware/auth.ts sessionIsLive): not
 * revoked, not expired at `now`, its user not disabled and still holding the platform role the token claims.
 */
export const sessionLive = (userId: string, sessionId: string, claimedRole: string, now: string): SQL =>
  sql`exists (select 1 from sessions s join users u on u.id = s.user_id where s.id = ${sessionId} and s.user_id = ${userId}
    and s.revoked_at is null and s.expires_at > ${now} and u.disabled_at is null and u.platform_role = ${claimedRole})`;

/** Roles that change a network's configuration (nodes, policies, pools, DNS, the network itself). */
export const MANAGING_ROLES = ["admin", "owner"] as const;

/** The user owns the device and still holds devices in its group (the owner's own device writes). */
export const ownsDeviceIn = (userId: string, deviceId: string, groupId: string): SQL =>
  sql`(exists (select 1 from devices d where d.id = ${deviceId} and d.user_id = ${userId}) and ${holdsRoleInGroup(userId, groupId, DEVICE_HOLDING_ROLES)})`;

/** May this user have a device in this network right now (member, admin, owner, or platform admin)? */
export const holdsDevicesIn = (userId: SQL | string, networkId: SQL | string) =>
  holdsRoleInNetwork(userId, networkId, DEVICE_HOLDING_ROLES);

/**
 * The enrolment key is usable now (not revoked, not expired, uses left) and whoever created it still
 * manages its network: a key is a grant of its issuer and ends with the issuer's authority (removal,
 * disabling, deletion — which clears created_by — or demotion below admin).
 */
export function enrolmentKeyUsable(keyId: string, networkId: string, now: string): SQL {
  return sql`exists (select 1 from enrolment_keys k where k.id = ${keyId} and k.network_id = ${networkId}
    and k.revoked_at is null and k.expires_at > ${now} and k.used_count < k.usage_limit
    and k.created_by is not null and ${holdsRoleInNetwork(sql`k.created_by`, sql`k.network_id`, ["admin", "owner"])})`;
}

/**
 * Whoever sent the invite may still grant its role in its group: a platform admin, an owner, or an admin
 * for roles below owner (the rule services/identity/invites.ts applies when the invite is created). A deleted
 * inviter (invited_by cleared) grants nothing.
 */
export function inviterStillGrants(inviteId: string): SQL {
  return sql`exists (select 1 from invites i join users u on u.id = i.invited_by
    where i.id = ${inviteId} and u.disabled_at is null and (u.platform_role = 'admin'
      or exists (select 1 from memberships m where m.group_id = i.group_id and m.user_id = u.id
        and (m.role = 'owner' or (m.role = 'admin' and i.role <> 'owner')))))`;
}

/**
 * The agent's credential still stands (not revoked) and still names this gateway: a gateway daemon may
 * change its gateway's nodes only while both hold when the write runs.
 */
export const agentServesGateway = (agentId: string, gatewayId: string): SQL =>
  sql`exists (select 1 from agents a where a.id = ${agentId} and a.revoked_at is null and a.gateway_id = ${gatewayId})`;

/**
 * The inventory gateway is assigned to the group, directly or through its region (gateway_assignments;
 * docs/identity.md, "Gateway assignment"). `groupId` and `gatewayId` may be values or SQL.
 */
export const gatewayAssignedToGroup = (groupId: SQL | string, gatewayId: SQL | string): SQL =>
  sql`exists (select 1 from gateways g join gateway_assignments ga on ga.group_id = ${groupId}
    and (ga.gateway_id = g.id or ga.region_id = g.region_id) where g.id = ${gatewayId})`;

/** Every gateway in the list (one JSON parameter, whatever its length) is assigned to the group. */
export const gatewaysAssignedToGroup = (groupId: string, gatewayIds: readonly string[]): SQL =>
  sql`not exists (select 1 from json_each(${JSON.stringify(gatewayIds)}) wanted
    where not ${gatewayAssignedToGroup(groupId, sql`wanted.value`)})`;

/** The user exists, is not disabled and is a platform admin: who may assign gateways to groups. */
export const isPlatformAdmin = (userId: string): SQL =>
  sql`exists (select 1 from users u where u.id = ${userId} and u.disabled_at is null and u.platform_role = 'admin')`;

/**
 * Who asks for a write the network's writer authorises itself: what services/authorization.ts decides a role from, and
 * the session it came with. With `sessionId` the writer checks the session too, in the read that finds the role:
 * routes on the `userWrites` guard leave it to the writer (middleware/auth.ts).
 */
export type WriteCaller = Pick<UserPrincipal, "userId" | "platformRole"> & { sessionId?: string };

/**
 * A column: the caller's session is live (1), or the caller named none (the Worker checked it). Named: D1's
 * batch answers rows as objects, and a column named `1` would sort first among their keys.
 */
export const callerLive = (caller: WriteCaller) =>
  (caller.sessionId ? sql`${sessionLive(caller.userId, caller.sessionId, caller.platformRole, nowIso())}` : sql`1`)
    .mapWith(Boolean)
    .as("caller_live");
