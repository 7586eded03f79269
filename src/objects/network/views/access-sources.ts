import { notFound } from "../../../lib/errors";
import { accessSubject, accessSubjects } from "../access-policy/access-state";
import { type CompiledAccess, compileAccess } from "../../../core/access-policy/compile";
import { accessSourcesOf } from "../../../core/access-policy/sources";
import type { HeldNetwork } from "../memory/held-network";

/**
 * GET /networks/{id}/access-sources?dst=: who may reach one node now and the rules that decide it, in one
 * read of the held network (instead of an access-check per node and port). `compiled`: the access the
 * current revision's configs were built with (its topology's), so the answer is theirs and costs no compile;
 * null in open mode, where everything is allowed.
 */
export function accessSourcesView(held: HeldNetwork, dst: string, compiled: CompiledAccess | null) {
  const node = held.nodes.get(dst);
  if (!node) throw notFound("Node");
  const access = compiled ?? compileAccess("open", accessSubjects(held.nodes.values(), held.owners), []);
  return {
    networkId: held.network.id,
    mode: held.network.accessMode,
    revision: held.access.revision,
    dst,
    ...accessSourcesOf(access, accessSubject(node, held.owners)),
  };
}
