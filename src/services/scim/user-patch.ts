// SCIM PATCH on a User (RFC 7644 §3.5.2) as Okta and Microsoft Entra send it: `replace` with a path
// (`active`, `name.givenName`, `emails[type eq "work"].value`) or with a value object and no path, ops spelt
// "Replace"/"Add"/"Remove", and booleans as the strings "True"/"False". scim-patch applies the operations to
// the user's SCIM resource (paths, value filters, the RFC's add/replace rules); the result is read back like a PUT.
import { ScimError, type ScimPatchOperation, scimPatch } from "scim-patch";
import type { users } from "../../db/schema";
import { scimRefusal } from "../../lib/errors";
import { type DirectoryUser, directoryUserFrom, type ScimUserResource, toScimUser } from "./user-resource";

/** More operations than any IdP sends in one request are refused (RFC 7644 §3.5.2 sets no bound; we do). */
export const MAX_PATCH_OPERATIONS = 100;

/** Operations as the request sent them; `value` stays unknown until scim-patch and directoryUserFrom read it. */
export type PatchOperations = { op: string; path?: string; value?: unknown }[];

export function patchedUser(user: typeof users.$inferSelect, operations: PatchOperations, origin: string): DirectoryUser {
  if (operations.length > MAX_PATCH_OPERATIONS) throw scimRefusal("tooMany", `At most ${MAX_PATCH_OPERATIONS} operations a PATCH`);
  const resource: Partial<ScimUserResource> = toScimUser(user, origin);
  // Our `name` was made from the given and family names: without `formatted`, a patched given name renames the user.
  const joined = [user.givenName, user.familyName].filter(Boolean).join(" ");
  if (resource.name && joined && joined === user.name) resource.name = { ...resource.name, formatted: undefined as unknown as string };
  let patched: Record<string, unknown>;
  try {
    patched = scimPatch(resource as unknown as ScimUserResource & { meta: never }, operations.map(normalised) as ScimPatchOperation[], {
      mutateDocument: false,
      treatMissingAsAdd: true,
    }) as unknown as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ScimError) throw scimRefusal(error.scimCode === "noTarget" ? "noTarget" : "invalidPath", error.message);
    throw error;
  }
  return directoryUserFrom(patched);
}

/** Lower-case ops (the library accepts the three spellings IdPs use; "REPLACE" too, now), and Entra's string booleans in value objects. */
function normalised(operation: { op: string; path?: string; value?: unknown }) {
  if (typeof operation?.op !== "string") throw scimRefusal("invalidSyntax", "Each operation needs an op");
  const op = operation.op.toLowerCase();
  if (op !== "add" && op !== "replace" && op !== "remove") throw scimRefusal("invalidSyntax", `Unknown op "${operation.op}"`);
  return { ...operation, op };
}
