import type { Cidr } from "../net/cidr";
import type { AccessRule } from "./rules";
import { type AccessSubject, hostPrefix, type Selector, selectsNode } from "./selectors";

/**
 * Nodes that no rule tells apart behave alike: a class is the set of rules whose source (or destination)
 * side selects a node. What one class may send another is worked out once per pair of classes, so a policy
 * over 10,000 nodes with a handful of tags costs (classes)² × rules, not nodes².
 */
export interface NodeClasses {
  classOf: Map<string, number>;
  members: AccessSubject[][];
  /** Per class, the positions in `rules` whose side selects its nodes, ascending. */
  rulesOf: number[][];
  /** Per rule position, the classes whose nodes its side selects: a class finds the classes it shares a rule with. */
  classesOf: number[][];
}

/** Selectors by what they name, so a node finds its rules by lookup instead of testing every rule. */
class SelectorIndex {
  private readonly everyone: number[] = [];
  private readonly byKey = new Map<string, number[]>();
  private readonly byPrefix: { cidr: Cidr; rule: number; selector: Selector }[] = [];

  constructor(rules: readonly AccessRule[], side: "src" | "dst") {
    rules.forEach((rule, i) => {
      for (const selector of rule[side]) {
        if (selector.kind === "any") this.everyone.push(i);
        else if (selector.kind === "cidr") this.byPrefix.push({ cidr: selector.cidr, rule: i, selector });
        else this.add(keyOf(selector), i);
      }
    });
  }

  private add(key: string, rule: number) {
    const list = this.byKey.get(key) ?? [];
    list.push(rule);
    this.byKey.set(key, list);
  }

  rulesSelecting(node: AccessSubject): number[] {
    const found = new Set(this.everyone);
    const keys = [`node:${node.id}`, ...node.tags];
    if (node.ownerEmail) keys.push(`user:${node.ownerEmail.toLowerCase()}`);
    if (node.ownerRole) keys.push(`role:${node.ownerRole}`);
    for (const group of node.ownerIdpGroups ?? []) keys.push(`idp:${group}`);
    for (const key of keys) for (const rule of this.byKey.get(key) ?? []) found.add(rule);
    if (this.byPrefix.length > 0) {
      const prefix = hostPrefix(node.address);
      for (const { rule, selector } of this.byPrefix) if (selectsNode(selector, node, prefix)) found.add(rule);
    }
    return [...found].sort((a, b) => a - b);
  }
}

function keyOf(selector: Exclude<Selector, { kind: "any" } | { kind: "cidr" }>): string {
  switch (selector.kind) {
    case "tag":
      return selector.tag;
    case "node":
      return `node:${selector.nodeId}`;
    case "user":
      return `user:${selector.email}`;
    case "role":
      return `role:${selector.role}`;
    case "idp":
      return `idp:${selector.group}`;
  }
}

export function classify(nodes: readonly AccessSubject[], rules: readonly AccessRule[], side: "src" | "dst"): NodeClasses {
  const index = new SelectorIndex(rules, side);
  const idOfKey = new Map<string, number>();
  const classes: NodeClasses = { classOf: new Map(), members: [], rulesOf: [], classesOf: rules.map(() => []) };
  for (const node of nodes) {
    const selecting = index.rulesSelecting(node);
    const key = selecting.join(",");
    let id = idOfKey.get(key);
    if (id === undefined) {
      id = classes.members.length;
      idOfKey.set(key, id);
      classes.members.push([]);
      classes.rulesOf.push(selecting);
      for (const rule of selecting) classes.classesOf[rule]!.push(id);
    }
    classes.classOf.set(node.id, id);
    classes.members[id]!.push(node);
  }
  return classes;
}
