import type { Env } from "../../lib/env";
import { typedStub } from "../../lib/typed-stub";
import type { GroupWriter } from "./group-writer";

export type { NetworkChanges, NewNetwork } from "./network-rows";

/** The group's writer, the one door into it: `await unwrap(groupWriter(env, groupId).createNetwork(...))`. */
export const groupWriter = (env: Env, groupId: string) => typedStub<GroupWriter>(env.GROUP_WRITER, groupId);
