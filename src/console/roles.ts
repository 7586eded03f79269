import type { Schema } from "../../client/index.ts";
import type { ConsoleUser } from "./types";

/**
 * What the console offers follows the API's rules (DESIGN: group owner/admin change a group's networks;
 * member and viewer read them). Hiding a form is only courtesy: the API decides every call again.
 */
export const canChangeGroup = (user: ConsoleUser | undefined, group: Pick<Schema<"Group">, "role"> | undefined) =>
  user?.platformRole === "admin" || group?.role === "owner" || group?.role === "admin";

export const isPlatformAdmin = (user: ConsoleUser | undefined) => user?.platformRole === "admin";
