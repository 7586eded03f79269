// A user as a SCIM User resource (RFC 7643 §4.1), and a resource an identity provider sent back into our
// columns. userName is the sign-in email (Okta and Entra send the person's email or UPN there).
import type { users } from "../../db/schema";
import { UNSAFE_TEXT_MESSAGE, unsafeCharacter } from "../../lib/display-name";
import { scimRefusal } from "../../lib/errors";
import { SCIM_BASE, SCIM_SCHEMAS } from "../../lib/scim-wire";

type UserRow = typeof users.$inferSelect;

export interface ScimUserResource {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  name: { formatted: string; givenName?: string; familyName?: string };
  displayName: string;
  emails: { value: string; primary: boolean; type: string }[];
  active: boolean;
  meta: { resourceType: "User"; created: string; lastModified: string; location: string };
}

export function toScimUser(user: UserRow, origin: string): ScimUserResource {
  return {
    schemas: [SCIM_SCHEMAS.user],
    id: user.id,
    ...(user.externalId ? { externalId: user.externalId } : {}),
    userName: user.directoryUserName ?? user.email,
    name: {
      formatted: user.name,
      ...(user.givenName ? { givenName: user.givenName } : {}),
      ...(user.familyName ? { familyName: user.familyName } : {}),
    },
    displayName: user.name,
    emails: [{ value: user.email, primary: true, type: "work" }],
    active: user.disabledAt === null,
    meta: {
      resourceType: "User",
      created: user.createdAt,
      lastModified: user.updatedAt,
      location: `${origin}${SCIM_BASE}/Users/${user.id}`,
    },
  };
}

/** What the directory says of a person, in our columns. */
export interface DirectoryUser {
  email: string;
  /** The SCIM userName as sent when it is not the email (an Entra UPN), else null. */
  userName: string | null;
  name: string;
  givenName: string | null;
  familyName: string | null;
  externalId: string | null;
  active: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_TEXT = 254;

/** Entra sends booleans as "True"/"False" in PATCH values; RFC 7643 says boolean. Both are read. */
export function scimBoolean(value: unknown, path: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  throw scimRefusal("invalidValue", `${path} must be true or false`);
}

/** A string the directory sent that we keep and show: bounded, and free of the characters lib/display-name.ts refuses. */
export function directoryText(value: unknown, path: string): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string" || value.length > MAX_TEXT)
    throw scimRefusal("invalidValue", `${path} must be a string of at most ${MAX_TEXT} characters`);
  const unsafe = unsafeCharacter(value);
  if (unsafe) throw scimRefusal("invalidValue", `${path}: ${UNSAFE_TEXT_MESSAGE} (found ${unsafe})`);
  return value.trim() || null;
}

/**
 * The sign-in email: userName when it is an address, else the primary (or first) of emails (an Entra UPN may
 * not be an address). Every email listed is checked, used or not: a client learns of a bad one at once.
 */
function emailOf(resource: Record<string, unknown>): string {
  const userName = directoryText(resource.userName, "userName");
  if (!userName) throw scimRefusal("invalidValue", "userName is required");
  const listed = Array.isArray(resource.emails) ? (resource.emails as { value?: unknown; primary?: unknown }[]) : [];
  const emails = listed.map((email) => ({
    value: directoryText(email?.value, "emails.value"),
    primary: email?.primary === true || email?.primary === "True",
  }));
  if (EMAIL.test(userName)) return userName.toLowerCase();
  const email = (emails.find((candidate) => candidate.primary) ?? emails[0])?.value;
  if (!email || !EMAIL.test(email))
    throw scimRefusal("invalidValue", "userName (or a primary email) must be an email address: people sign in with it");
  return email.toLowerCase();
}

/** A User resource as sent (POST, PUT, or after a PATCH was applied) → our columns; unknown attributes are ignored. */
export function directoryUserFrom(resource: Record<string, unknown>): DirectoryUser {
  const name = (resource.name ?? {}) as Record<string, unknown>;
  if (typeof name !== "object") throw scimRefusal("invalidValue", "name must be an object");
  const givenName = directoryText(name.givenName, "name.givenName");
  const familyName = directoryText(name.familyName, "name.familyName");
  const joined = [givenName, familyName].filter(Boolean).join(" ");
  // Read even when the name comes from elsewhere: what a client sends is checked, used or not.
  const displayName = directoryText(resource.displayName, "displayName");
  const email = emailOf(resource);
  const userName = directoryText(resource.userName, "userName");
  return {
    email,
    userName: userName === null || userName.toLowerCase() === email ? null : userName,
    name: directoryText(name.formatted, "name.formatted") ?? (joined || displayName) ?? "",
    givenName,
    familyName,
    externalId: directoryText(resource.externalId, "externalId"),
    active: resource.active === undefined ? true : scimBoolean(resource.active, "active"),
  };
}
