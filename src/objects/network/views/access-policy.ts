import { ApiError, fieldError, notFound } from "../../../lib/errors";
import { type AccessPolicyInput, accessSubject, accessSubjects } from "../access-policy/access-state";
import { compileAccess } from "../../../core/access-policy/compile";
import { decideFlow, type AccessTarget } from "../../../core/access-policy/decide";
import { failingTests } from "../../../core/access-policy/document-tests";
import { storedRules } from "../access-policy/held-access";
import { parseFlow } from "../../../core/access-policy/ports";
import { type AccessPreview, previewAccess } from "../../../core/access-policy/preview";
import { parseRules, rulesInForce } from "../../../core/access-policy/rules";
import { hostPrefixOrNull } from "../../../core/access-policy/selectors";
import type { HeldNetwork } from "../memory/held-network";

/** GET /networks/{id}/access-policy: the document in force, with the mode that decides whether it is enforced. */
export function accessPolicyView(held: HeldNetwork) {
  const { access, network } = held;
  return {
    networkId: network.id,
    mode: network.accessMode,
    revision: access.revision,
    rules: access.rules,
    tests: access.tests,
    updatedAt: access.createdAt,
    updatedBy: access.createdBy,
  };
}

/**
 * What PUTting `input` would change, without applying it (DESIGN.md: preview): peers per node and flows,
 * as if the network were in policy mode with it (so an open network's move can be seen before it is made),
 * and the document's tests with their results (a PUT refuses when any fails).
 */
export function previewAccessPolicy(
  held: HeldNetwork,
  input: AccessPolicyInput,
): AccessPreview & { failingTests: { path: string; message: string }[] } {
  const parsed = parseRules(input.rules);
  if (!parsed.ok) throw new ApiError("VALIDATION_ERROR", "The access policy is not valid", { fields: parsed.fields });
  const subjects = accessSubjects(held.nodes.values(), held.owners);
  const now = Date.now();
  const before = compileAccess(held.network.accessMode, subjects, rulesInForce(storedRules(held), now));
  const after = compileAccess("policy", subjects, rulesInForce(parsed.rules, now));
  return {
    ...previewAccess(subjects, before, after),
    failingTests: failingTests("policy", rulesInForce(parsed.rules, now), input.tests, subjects),
  };
}

/**
 * GET /networks/{id}/access-check: one flow, decided as the network's configs and filters decide it, and the
 * rule that did. Only the two ends become subjects (a rule's selectors are matched against them alone), so a
 * check costs the rules, not the network's size (finding a destination given by address is a scan of rows).
 */
export function checkAccessFlow(held: HeldNetwork, query: { src: string; dst: string; port: string }) {
  const src = held.nodes.get(query.src);
  if (!src) throw notFound("Source node");
  const flow = parseFlow(query.port);
  if (!flow.ok) throw fieldError("port", flow.reason);
  const rules = rulesInForce(storedRules(held), Date.now());
  const decision = decideFlow(held.network.accessMode, rules, accessSubject(src, held.owners), targetOf(held, query.dst), flow.value);
  return {
    allowed: decision.allowed,
    rule: decision.rule === null ? null : { index: decision.rule, ...held.access.rules[decision.rule]! },
  };
}

/** The destination: a node by id or by overlay address, else one address (a routed host). */
function targetOf(held: HeldNetwork, dst: string): AccessTarget {
  const node = held.nodes.get(dst) ?? nodeAt(held, dst);
  if (node) return { node: accessSubject(node, held.owners) };
  const address = hostPrefixOrNull(dst);
  if (!address) throw fieldError("dst", "Expected a node id of this network or one address");
  return { address };
}

function nodeAt(held: HeldNetwork, address: string) {
  for (const node of held.nodes.values()) if (node.address === address) return node;
  return undefined;
}
