import { describe, expect, it } from "vitest";
import { CompiledAccess } from "../../src/core/access-policy/compile";
import { decideFlow } from "../../src/core/access-policy/decide";
import { failingTests } from "../../src/core/access-policy/document-tests";
import { forwardRules } from "../../src/core/access-policy/forward";
import { formatPorts, parseFlow, parsePortSpec } from "../../src/core/access-policy/ports";
import { type AccessRuleText, nextExpiry, parseRules, rulesInForce } from "../../src/core/access-policy/rules";
import type { AccessSubject } from "../../src/core/access-policy/selectors";
import { mustParseCidr } from "../../src/core/net/cidr";

const node = (i: number, tags: string[], ownerEmail: string | null = null): AccessSubject => ({
  id: `node_${i}`,
  address: `10.0.0.${i}`,
  tags,
  ownerEmail,
  ownerRole: ownerEmail ? "member" : null,
});
const laptop = node(1, ["tag:dev"], "ana@example.com");
const web = node(2, ["tag:web"]);
const ops = node(3, ["tag:ops"]);
const untagged = node(4, []);
const nodes = [laptop, web, ops, untagged];

function rules(texts: AccessRuleText[]) {
  const parsed = parseRules(texts);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.fields));
  return parsed.rules;
}

describe("port specs", () => {
  it("parses and prints canonically, joining what touches", () => {
    const spec = (text: string) => {
      const parsed = parsePortSpec(text);
      if (!parsed.ok) throw new Error(parsed.reason);
      return formatPorts(parsed.value);
    };
    expect(spec("*")).toEqual(["*"]);
    expect(spec("tcp:443")).toEqual(["tcp:443"]);
    expect(spec("udp:5000-5100")).toEqual(["udp:5000-5100"]);
    expect(spec("tcp:*")).toEqual(["tcp"]);
    for (const bad of ["tcp:0", "tcp:70000", "tcp:30-20", "sctp:1", "443", "tcp:", ""]) expect(parsePortSpec(bad).ok, bad).toBe(false);
    expect(parseFlow("tcp:1-2").ok).toBe(false);
  });
});

describe("rules", () => {
  it("reports every malformed selector, port and date with its path", () => {
    const parsed = parseRules([
      { action: "allow", src: ["tag:Web", "*"], dst: [], ports: ["tcp:99999"] },
      { action: "deny", src: ["user:nobody"], dst: ["10.0.0.1/24"], ports: ["*"], expiresAt: "tomorrow" },
    ]);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.fields.map((field) => field.path)).toEqual([
      "rules.0.src.0",
      "rules.0.dst",
      "rules.0.ports.0",
      "rules.1.src.0",
      "rules.1.dst.0",
      "rules.1.expiresAt",
    ]);
  });

  it("a deny carved out of a broad allow holds, and the deny is the rule that decided", () => {
    const policy = rules([
      { action: "allow", src: ["tag:dev", "tag:ops"], dst: ["tag:web"], ports: ["tcp"] },
      { action: "deny", src: ["tag:dev"], dst: ["tag:web"], ports: ["tcp:22"] },
      { action: "allow", src: ["tag:ops"], dst: ["tag:web"], ports: ["icmp"] },
    ]);
    const compiled = new CompiledAccess(nodes, policy);
    expect(formatPorts(compiled.portsBetween(laptop.id, web.id))).toEqual(["tcp:1-21", "tcp:23-65535"]);
    expect(formatPorts(compiled.portsBetween(ops.id, web.id))).toEqual(["icmp", "tcp"]);
    expect(decideFlow("policy", policy, laptop, { node: web }, { protocol: "tcp", port: 22 })).toEqual({ allowed: false, rule: 1 });
    expect(decideFlow("policy", policy, laptop, { node: web }, { protocol: "tcp", port: 443 })).toEqual({ allowed: true, rule: 0 });
    expect(decideFlow("policy", policy, untagged, { node: web }, { protocol: "tcp", port: 443 })).toEqual({ allowed: false, rule: null });
    expect(decideFlow("open", policy, laptop, { node: web }, { protocol: "tcp", port: 22 })).toEqual({ allowed: true, rule: null });
    // Web may reach nobody, but it keeps its clients as peers so their handshakes and replies work.
    expect(compiled.mayPeer(web.id, laptop.id)).toBe(true);
    expect(compiled.mayPeer(untagged.id, web.id)).toBe(false);
    expect(compiled.inboundRules(web.id)).toEqual([
      { ports: ["icmp", "tcp"], from: ["10.0.0.3/32"] },
      { ports: ["tcp:1-21", "tcp:23-65535"], from: ["10.0.0.1/32"] },
    ]);
    expect(compiled.inboundRules(untagged.id)).toEqual([]);
  });

  it("an expired rule is as if unwritten, and the next expiry is known without another write", () => {
    const policy = rules([
      { action: "allow", src: ["user:ana@example.com"], dst: ["*"], ports: ["*"], expiresAt: "2026-11-26T10:00:00Z" },
      { action: "allow", src: ["*"], dst: ["tag:web"], ports: ["icmp"], expiresAt: "2026-11-27T10:00:00Z" },
    ]);
    const before = Date.parse("2026-11-26T09:59:59Z");
    const after = Date.parse("2026-11-26T10:00:00Z");
    expect(new CompiledAccess(nodes, rulesInForce(policy, before)).mayPeer(laptop.id, ops.id)).toBe(true);
    expect(new CompiledAccess(nodes, rulesInForce(policy, after)).mayPeer(laptop.id, ops.id)).toBe(false);
    expect(nextExpiry(policy, before)).toBe(after);
    expect(nextExpiry(policy, Date.parse("2026-11-28T00:00:00Z"))).toBe(null);
  });

  it("a first hop's forward filter drops the carved-out part before accepting the rest", () => {
    const policy = rules([
      { action: "allow", src: ["tag:ops"], dst: ["192.168.0.0/16"], ports: ["*"] },
      { action: "allow", src: ["tag:dev"], dst: ["*"], ports: ["tcp:443"] },
      { action: "deny", src: ["*"], dst: ["192.168.9.0/24"], ports: ["*"] },
      { action: "allow", src: ["tag:web"], dst: ["172.16.0.0/12"], ports: ["*"] },
    ]);
    const lan = { policyId: "pol_1", destination: mustParseCidr("192.168.0.0/16") };
    expect(forwardRules(nodes, policy, [lan])).toEqual([
      { action: "drop", from: ["10.0.0.1/32", "10.0.0.2/32", "10.0.0.3/32", "10.0.0.4/32"], to: ["192.168.9.0/24"], ports: ["*"], rule: 2 },
      { action: "accept", from: ["10.0.0.3/32"], to: ["192.168.0.0/16"], ports: ["*"], rule: 0 },
      { action: "accept", from: ["10.0.0.1/32"], to: ["192.168.0.0/16"], ports: ["tcp:443"], rule: 1 },
    ]);
    const compiled = new CompiledAccess(nodes, policy);
    expect(compiled.reachesDestination(ops.id, lan.destination)).toBe(true);
    expect(compiled.reachesDestination(web.id, lan.destination)).toBe(false);
    expect(decideFlow("policy", policy, ops, { address: mustParseCidr("192.168.9.7/32") }, { protocol: "icmp" })).toEqual({
      allowed: false,
      rule: 2,
    });
    expect(decideFlow("policy", policy, ops, { address: mustParseCidr("192.168.1.7/32") }, { protocol: "icmp" })).toEqual({
      allowed: true,
      rule: 0,
    });
  });
});

describe("the document's tests", () => {
  const policy = rules([
    { action: "allow", src: ["tag:dev"], dst: ["tag:web"], ports: ["tcp:443"] },
    { action: "allow", src: ["tag:ops"], dst: ["*"], ports: ["*"] },
    { action: "deny", src: ["*"], dst: ["192.168.9.0/24"], ports: ["*"] },
  ]);

  it("pass when every selected source and destination gets the expected answer", () => {
    const tests = [
      { src: "tag:dev", dst: "tag:web", port: "tcp:443", expect: "allow" as const },
      { src: "tag:dev", dst: "tag:web", port: "tcp:22", expect: "deny" as const },
      { src: "tag:ops", dst: "10.0.0.2", port: "icmp", expect: "allow" as const },
      { src: "*", dst: "192.168.9.10", port: "tcp:80", expect: "deny" as const },
    ];
    expect(failingTests("policy", policy, tests, nodes)).toEqual([]);
  });

  it("lists every failing test with the flow and the rule that decided, and a selector naming no node fails", () => {
    const tests = [
      { src: "tag:dev", dst: "tag:web", port: "tcp:22", expect: "allow" as const },
      { src: "tag:ops", dst: "192.168.9.10", port: "icmp", expect: "allow" as const },
      { src: "tag:nobody", dst: "tag:web", port: "icmp", expect: "deny" as const },
      { src: "tag:dev", dst: "tag:web", port: "tcp:1-2", expect: "deny" as const },
    ];
    expect(failingTests("policy", policy, tests, nodes)).toEqual([
      { path: "tests.0", message: "Expected allow for 10.0.0.1 → 10.0.0.2 tcp:22, got deny (no rule allows it)" },
      { path: "tests.1", message: "Expected allow for 10.0.0.3 → 192.168.9.10/32 icmp, got deny (rules.2 decided)" },
      { path: "tests.2.src", message: '"tag:nobody": Selects no node of the network' },
      { path: "tests.3.port", message: 'Expected one flow: "icmp", "tcp:22" or "udp:53"' },
    ]);
  });
});
