import { notFound } from "../../../lib/errors";
import { accessSubjects } from "../access/access-state";
import { compileAccess } from "../access/compile";
import { storedRules } from "../access/held-access";
import { rulesInForce } from "../access/rules";
import { accessSourcesOf } from "../access/sources";
import type { HeldNetwork } from "../memory/held-network";

/**
 * GET /networks/{id}/access-sources?dst=: who may reach one node now and the rules that decide it, in one
 * read of the held network (instead of an access-check per node and port).
 */
export function accessSourcesView(held: HeldNetwork, dst: string) {
  const subjects = accessSubjects(held.nodes.values(), held.owners);
  const target = subjects.find((subject) => subject.id === dst);
  if (!target) throw notFound("Node");
  const compiled = compileAccess(held.network.accessMode, subjects, rulesInForce(storedRules(held), Date.now()));
  return {
    networkId: held.network.id,
    mode: held.network.accessMode,
    revision: held.access.revision,
    dst,
    ...accessSourcesOf(compiled, target),
  };
}
