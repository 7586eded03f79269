// The OIDC groups claim (DESIGN.md "Identity from the organisation's directory"): at every sign-in through the
// generic OIDC provider whose ID token (or userinfo) carries the claim, the person's claimed IdP groups are
// replaced by what it lists, and the directory's roles and `idp:` selectors follow, as for a SCIM group change.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { oidcGroupClaims } from "../../db/schema";
import { chunks } from "../../lib/chunks";
import { unsafeCharacter } from "../../lib/display-name";
import type { Env } from "../../lib/env";
import { nowIso } from "../../lib/ids";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { refreshOwnersOf } from "../networks/device-lifecycle";
import { applyDirectoryRoles } from "./directory-roles";
import { type DirectoryWrite, directoryGuard } from "./scim-guard";

/** More names than this are cut (a token listing thousands is a misconfigured claim, not a directory). */
export const MAX_CLAIMED_GROUPS = 200;
const MAX_NAME = 254;

/** The names kept: distinct, bounded, without characters lib/display-name.ts refuses (those are dropped, not refused: sign-in must not fail on them). */
export function claimedGroupNames(groups: readonly string[]): string[] {
  const kept = groups.map((name) => name.trim()).filter((name) => name.length > 0 && name.length <= MAX_NAME && !unsafeCharacter(name));
  return [...new Set(kept)].sort().slice(0, MAX_CLAIMED_GROUPS);
}

/** The person signing in, still enabled when the batch runs: the authority the claim's change is made on. */
const signingIn = (audit: AuditContext, userId: string): DirectoryWrite => ({
  audit,
  holds: sql`exists (select 1 from users where id = ${userId} and disabled_at is null)`,
});

/** Replaces the person's claimed groups when the claim changed them; a claim that lists the same ones changes nothing. */
export async function applyClaimedGroups(env: Env, db: Db, userId: string, groups: readonly string[] | null, audit: AuditContext) {
  if (groups === null) return;
  const names = claimedGroupNames(groups);
  const held = (await db.select({ name: oidcGroupClaims.name }).from(oidcGroupClaims).where(eq(oidcGroupClaims.userId, userId)).all())
    .map((row) => row.name)
    .sort();
  if (held.join("\n") === names.join("\n")) return;
  const write = signingIn(audit, userId);
  const now = nowIso();
  const rows = names.map((name) => ({ userId, name, createdAt: now }));
  await db.batch([
    directoryGuard(db, write),
    db.delete(oidcGroupClaims).where(eq(oidcGroupClaims.userId, userId)),
    ...chunks(rows, 30).map((part) => db.insert(oidcGroupClaims).values(part)),
    auditStatement(db, audit, { action: "idp-groups.claimed", resourceId: userId, groupId: null, networkId: null }, now),
  ]);
  await applyDirectoryRoles(env, db, [userId], write);
  await refreshOwnersOf(env, db, [userId]);
}
