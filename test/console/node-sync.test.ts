import { describe, expect, it } from "vitest";
import type { Schema } from "../../client/index.ts";
import { dnsSyncOf, routingSyncOf } from "../../src/console/pages/node-sync";

const status = (changes: Partial<Schema<"RuntimeStatus">["routing"]>, dns: Partial<Schema<"RuntimeStatus">["dns"]> = {}) =>
  ({
    networkId: "net_x",
    routing: { desiredRevision: 7, appliedRevision: null, inSync: false, lagging: [], unreported: [], failing: [], ...changes },
    dns: { desiredRevision: 3, appliedRevision: null, inSync: false, lagging: [], ...dns },
  }) satisfies Schema<"RuntimeStatus">;

describe("runtime status per node (console)", () => {
  it("names a failing node with its agent's error before anything else", () => {
    const failing = status({ lagging: ["node_a"], failing: [{ nodeId: "node_a", error: "wg: interface busy" }] });
    expect(routingSyncOf(failing, { id: "node_a", redacted: false })).toEqual({ state: "failing", detail: "wg: interface busy" });
    expect(routingSyncOf(failing, { id: "node_b", redacted: false })).toEqual({ state: "in sync", detail: "runs revision 7" });
  });

  it("says DNS only for gateway nodes, and unknown when the API cannot tell which gateway has not reported", () => {
    const partly = status({}, { lagging: ["node_g2"] });
    expect(dnsSyncOf(partly, { id: "node_p", roles: [], redacted: false })).toEqual({ state: "not a DNS server" });
    expect(dnsSyncOf(partly, { id: "node_g2", roles: ["gateway"], redacted: false }).state).toBe("lagging");
    expect(dnsSyncOf(partly, { id: "node_g1", roles: ["gateway"], redacted: false }).state).toBe("unknown");
    expect(dnsSyncOf(status({}, { inSync: true, appliedRevision: 3 }), { id: "node_g1", roles: ["gateway"], redacted: false }).state).toBe(
      "in sync",
    );
  });

  it("says nothing of another member's device (the API leaves it out of the lists): never 'in sync'", () => {
    const lagging = status({ lagging: [] });
    expect(routingSyncOf(lagging, { id: "node_d", redacted: true }).state).toBe("not shown");
    expect(dnsSyncOf(lagging, { id: "node_d", roles: ["gateway"], redacted: true }).state).toBe("not shown");
  });
});
