import type { Env } from "../lib/env";
import type { NetworkChanges, NewNetwork } from "./operations/networks";
import { unwrap } from "./write-result";

const stub = (env: Env, name: string) => env.NETWORK_WRITER.get(env.NETWORK_WRITER.idFromName(name));

/** Typed calls into the writers; API errors thrown inside come back out as ApiError. */
export const groupWriter = (env: Env, groupId: string) => {
  const writer = stub(env, `group:${groupId}`);
  return {
    createNetwork: (input: NewNetwork) => unwrap(writer.createNetwork(input)),
  };
};

export const networkWriter = (env: Env, networkId: string) => {
  const writer = stub(env, networkId);
  return {
    updateNetwork: (groupId: string, changes: NetworkChanges) => unwrap(writer.updateNetwork(networkId, groupId, changes)),
    deleteNetwork: () => unwrap(writer.deleteNetwork(networkId)),
  };
};
