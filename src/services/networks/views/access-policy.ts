import { ApiError, fieldError, notFound } from "../../../lib/errors";
import { type AccessPolicyInput, accessSubjects } from "../access/access-state";
import { compileAccess } from "../access/compile";
import { decideFlow, type AccessTarget } from "../access/decide";
import { failingTests } from "../access/document-tests";
import { storedRules } from "../access/held-access";
import { parseFlow } from "../access/ports";
import { type AccessPreview, previewAccess } from "../access/preview";
import { parseRules, rulesInForce } from "../access/rules";
import { hostPrefix } from "../access/selectors";
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

/** GET /networks/{id}/access-check: one flow, decided as the network's configs and filters decide it, and the rule that did. */
export function checkAccessFlow(held: HeldNetwork, query: { src: string; dst: string; port: string }) {
  const src = held.nodes.get(query.src);
  if (!src) throw notFound("Source node");
  const flow = parseFlow(query.port);
  if (!flow.ok) throw fieldError("port", flow.reason);
  const subjects = new Map(accessSubjects(held.nodes.values(), held.owners).map((subject) => [subject.id, subject]));
  const byAddress = [...subjects.values()].find((subject) => subject.address === query.dst);
  let target: AccessTarget;
  if (subjects.has(query.dst)) target = { node: subjects.get(query.dst)! };
  else if (byAddress) target = { node: byAddress };
  else {
    const address = parseAddressOrNull(query.dst);
    if (!address) throw fieldError("dst", "Expected a node id of this network or one address");
    target = { address };
  }
  const rules = rulesInForce(storedRules(held), Date.now());
  const decision = decideFlow(held.network.accessMode, rules, subjects.get(src.id)!, target, flow.value);
  return {
    allowed: decision.allowed,
    rule: decision.rule === null ? null : { index: decision.rule, ...held.access.rules[decision.rule]! },
  };
}

function parseAddressOrNull(text: string) {
  try {
    return hostPrefix(text);
  } catch {
    return null;
  }
}
