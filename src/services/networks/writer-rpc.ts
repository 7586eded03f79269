import type { Env } from "../../lib/env";
import type { WriteResult } from "../../lib/write-result";
import type { AuditContext } from "../audit/audit-trail";
import type { HeartbeatWrite } from "./operations/heartbeats";

/**
 * What crosses the RPC boundary to a network's writer (the Durable Object in src/durable-objects):
 * a command by name with its arguments and the request it serves (its audit row commits with the
 * change; the answer carries the domain events), or a heartbeat for group commit. Declared here, on the caller's
 * side, so the domain never imports the Durable Object; the class declares that it implements this.
 */
export interface WriterRpc {
  run(command: string, args: unknown[], audit?: AuditContext): Promise<WriteResult<unknown>>;
  recordHeartbeat(heartbeat: HeartbeatWrite): Promise<WriteResult<void>>;
}

/** Instances are named by a network id, or "group:<id>" for the checks that span a group's networks. */
export const groupWriterName = (groupId: string) => `group:${groupId}`;

export function writerStub(env: Env, name: string): WriterRpc {
  // The binding is declared untyped in lib/env (lib sits below the domain); this is its one typed view.
  return env.NETWORK_WRITER.get(env.NETWORK_WRITER.idFromName(name)) as unknown as WriterRpc;
}
