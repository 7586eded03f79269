import type { Env } from "../../lib/env";
import { typedStub } from "../../lib/typed-stub";
import type { NetworkWriter } from "./network-writer";

/**
 * The one door into a network's Durable Object (docs/architecture.md, "Objects"): the typed stub of its writer,
 * `await unwrap(networkWriter(env, networkId).createNode(...))`, and the types its methods take and answer.
 * Everything else in this folder runs inside the object; the Worker imports none of it (npm run check:imports).
 */
export const networkWriter = (env: Env, networkId: string) => typedStub<NetworkWriter>(env.NETWORK_WRITER, networkId);

export type { AccessPolicyInput } from "./access-policy/access-state";
export type { NodeHot } from "./hot/hot-store";
export type { ListedTunnel } from "./hot/tunnel-query";
export type { ConfigRead, ConfigWanted } from "./memory/config-reads";
export type { AgentNodeState, GatewayAgent } from "./operations/gateway-agent";
export type { ReceivedAgentReport } from "./operations/heartbeats";
