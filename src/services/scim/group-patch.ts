// SCIM PATCH on a Group (RFC 7644 §3.5.2) in the forms identity providers send: Okta adds members with
// `{op: "add", path: "members", value: [{value}]}` and removes one with `path: 'members[value eq "…"]'`;
// Entra spells ops "Add"/"Remove"/"Replace" and removes with `path: "members", value: [{value}]`; both rename
// with a path or a value object. Interpreted here as one change to the group, not applied to a loaded copy
// (a directory's group may hold thousands of members).
import { parse } from "scim2-parse-filter";
import { scimRefusal } from "../../lib/errors";
import type { PatchOperations } from "./user-patch";
import { MAX_PATCH_OPERATIONS } from "./user-patch";
import { directoryText } from "./user-resource";

export interface GroupChange {
  displayName?: string;
  externalId?: string | null;
  /** Every member replaced by these (a `replace` of members, or removing them all: the empty set). */
  members?: Set<string>;
  add: Set<string>;
  remove: Set<string>;
}

export const MAX_MEMBERS_A_REQUEST = 1_000;

/** `[{value: "usr_…"}, …]` → the ids; anything else is refused. */
export function memberIds(value: unknown, path = "members"): string[] {
  if (!Array.isArray(value)) throw scimRefusal("invalidValue", `${path} must be a list of {"value": "<user id>"}`);
  if (value.length > MAX_MEMBERS_A_REQUEST) throw scimRefusal("tooMany", `At most ${MAX_MEMBERS_A_REQUEST} members a request`);
  return value.map((member) => {
    const id = (member as { value?: unknown })?.value;
    if (typeof id !== "string" || id.length === 0 || id.length > 64)
      throw scimRefusal("invalidValue", `Each of ${path} needs a "value": a user id`);
    return id;
  });
}

function stringValue(value: unknown, path: string): string {
  const text = directoryText(value, path);
  if (!text) throw scimRefusal("invalidValue", `${path} must be a string of 1-254 characters`);
  return text;
}

/** A Group resource as POST and PUT send it → the group's names and its whole member list. */
export function groupFromResource(resource: { displayName?: unknown; externalId?: unknown; members?: unknown }) {
  return {
    displayName: stringValue(resource.displayName, "displayName"),
    externalId: directoryText(resource.externalId, "externalId"),
    members: resource.members === undefined || resource.members === null ? [] : memberIds(resource.members),
  };
}

/** The user a `members[value eq "…"]` path names. */
function memberOfPath(path: string): string {
  const match = /^members\[(.+)\]$/i.exec(path.trim());
  if (!match) throw scimRefusal("invalidPath", `Unsupported path ${path}`);
  let filter: ReturnType<typeof parse>;
  try {
    filter = parse(match[1]!);
  } catch (error) {
    throw scimRefusal("invalidFilter", `The path's filter does not parse: ${(error as Error).message}`);
  }
  if (filter.op !== "eq" || filter.attrPath.toLowerCase() !== "value" || typeof filter.compValue !== "string") {
    throw scimRefusal("invalidFilter", 'A member path names one member: members[value eq "<user id>"]');
  }
  return filter.compValue;
}

export function groupChange(operations: PatchOperations): GroupChange {
  if (operations.length > MAX_PATCH_OPERATIONS) throw scimRefusal("tooMany", `At most ${MAX_PATCH_OPERATIONS} operations a PATCH`);
  const change: GroupChange = { add: new Set(), remove: new Set() };
  // A later operation wins over an earlier one for the same member.
  const adding = (ids: string[]) => {
    for (const id of ids) {
      change.remove.delete(id);
      change.add.add(id);
    }
  };
  const removing = (ids: string[]) => {
    for (const id of ids) {
      change.add.delete(id);
      change.remove.add(id);
    }
  };
  const replacing = (ids: string[]) => {
    change.members = new Set(ids);
    change.add.clear();
    change.remove.clear();
  };
  const attribute = (name: string, value: unknown, op: string) => {
    const key = name.toLowerCase();
    if (key === "displayname") change.displayName = stringValue(value, "displayName");
    else if (key === "externalid") change.externalId = directoryText(value, "externalId");
    else if (key === "members") (op === "add" ? adding : replacing)(memberIds(value));
    else if (key !== "id" && key !== "schemas" && key !== "meta") throw scimRefusal("invalidPath", `A group has no attribute ${name}`);
  };
  for (const operation of operations) {
    const op = typeof operation?.op === "string" ? operation.op.toLowerCase() : "";
    const path = operation.path?.trim();
    if (op === "remove") {
      if (!path) throw scimRefusal("noTarget", "A remove needs a path");
      if (/^members$/i.test(path)) {
        if (operation.value === undefined) replacing([]);
        else removing(memberIds(operation.value));
      } else if (/^externalid$/i.test(path)) change.externalId = null;
      else removing([memberOfPath(path)]);
    } else if (op === "add" || op === "replace") {
      if (path) attribute(path, operation.value, op);
      else if (operation.value && typeof operation.value === "object" && !Array.isArray(operation.value)) {
        for (const [name, value] of Object.entries(operation.value)) attribute(name, value, op);
      } else throw scimRefusal("invalidValue", `An ${op} without a path needs an object value`);
    } else throw scimRefusal("invalidSyntax", `Unknown op "${operation?.op}"`);
  }
  return change;
}
