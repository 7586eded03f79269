import { describe, expect, it } from "vitest";
import { call, get, type ApiResponse } from "../helpers/api";
import { createGateway, createGroup, createNetwork, createNode, fakePublicKey, signInAdmin, type Session } from "../helpers/factories";
import { zoneRecords } from "./zone";

/**
 * Many clients mutating one network at once, through the per-network writer: 200 requests in four
 * waves of 50 concurrent (creates, renames, replaces, deletes of nodes, policies and DNS records).
 * Nothing may be lost, revisions must be gapless (each counter moves exactly once per successful
 * write, and every revision a write answers is its own), and the artifacts must agree with the records.
 */
type Op = {
  label: string;
  kind: "routing" | "dns" | "both";
  send: () => Promise<ApiResponse>;
  revisionOf?: "routing" | "dns";
  apply: (body: any) => void;
};

interface Expected {
  nodes: Map<string, string>;
  policies: Map<string, string>;
  records: Map<string, { name: string; value: string }>;
}

const WAVES = 4;
const PER_WAVE = 50;

describe("load: one network, many writers", () => {
  it(`${WAVES * PER_WAVE} concurrent mutations in ${WAVES} waves: nothing lost, revisions gapless, artifacts match`, async () => {
    const admin = await signInAdmin();
    const network = await createNetwork(admin, (await createGroup(admin)).id, "10.90.0.0/20");
    const gateways = [await createGateway(admin), await createGateway(admin)];
    const hops: { id: string; name: string }[] = [];
    for (const [i, gateway] of gateways.entries())
      hops.push(await createNode(admin, network.id, { name: `gw${i}`, gatewayId: gateway.id, endpoint: `198.51.100.${i + 1}:51820` }));
    const expected: Expected = { nodes: new Map(hops.map((h) => [h.id, h.name])), policies: new Map(), records: new Map() };
    const start = (await get(`/networks/${network.id}`, admin.token)).body;

    let serial = 0;
    const results: { op: Op; response: ApiResponse }[] = [];
    for (let wave = 0; wave < WAVES; wave++) {
      const ops = Array.from({ length: PER_WAVE }, () =>
        nextOp(
          admin,
          network.id,
          hops.map((h) => h.id),
          expected,
          serial++,
        ),
      );
      const responses = await Promise.all(ops.map((op) => op.send()));
      claimed.clear();
      responses.forEach((response, i) => {
        expect(response.status, response.text).toBeLessThan(300);
        ops[i]!.apply(response.body);
        results.push({ op: ops[i]!, response });
      });
    }

    const mix = new Map<string, number>();
    for (const { op } of results) mix.set(op.label, (mix.get(op.label) ?? 0) + 1);
    expect(mix.size, JSON.stringify([...mix])).toBe(9);
    for (const [label, count] of mix) expect(count, label).toBeGreaterThanOrEqual(5);

    // Gapless: each counter moved exactly once per write that touches it, and the revisions the
    // writes answered are distinct and inside the range the counter moved through.
    const end = (await get(`/networks/${network.id}`, admin.token)).body;
    const touching = (counter: "routing" | "dns") => results.filter((r) => r.op.kind === counter || r.op.kind === "both");
    expect(end.routingRevision - start.routingRevision).toBe(touching("routing").length);
    expect(end.dnsRevision - start.dnsRevision).toBe(touching("dns").length);
    for (const counter of ["routing", "dns"] as const) {
      const answered = results.filter((r) => r.op.revisionOf === counter).map((r) => r.response.body.revision as number);
      expect(new Set(answered).size, `${counter} revisions are unique`).toBe(answered.length);
      const [from, to] = counter === "routing" ? [start.routingRevision, end.routingRevision] : [start.dnsRevision, end.dnsRevision];
      for (const revision of answered) expect(revision > from && revision <= to, `${counter} ${revision} in (${from}, ${to}]`).toBe(true);
    }

    // Nothing lost: the stored sets are exactly what the successful writes say.
    const nodes = (await get(`/nodes?networkId=${network.id}&limit=200`, admin.token)).body.items as {
      id: string;
      name: string;
      address: string;
    }[];
    const policies = (await get(`/networks/${network.id}/routing-policies?limit=200`, admin.token)).body.items as {
      id: string;
      name: string;
    }[];
    const records = (await get(`/networks/${network.id}/dns/records?limit=200`, admin.token)).body.items as {
      id: string;
      name: string;
      value: string;
    }[];
    expect(new Map(nodes.map((n) => [n.id, n.name]))).toEqual(expected.nodes);
    expect(new Map(policies.map((p) => [p.id, p.name]))).toEqual(expected.policies);
    expect(new Map(records.map((r) => [r.id, { name: r.name, value: r.value }]))).toEqual(expected.records);
    expect(new Set(nodes.map((n) => n.address)).size).toBe(nodes.length);

    // Artifacts: the zone holds exactly the records and the node names; configs follow the final state.
    const zone = (await get(`/networks/${network.id}/dns/zonefile`, admin.token)).text;
    const want = [...records.map((r) => `${r.name} A ${r.value}`), ...nodes.map((n) => `${n.name} A ${n.address}`)].sort();
    expect(zoneRecords(zone), zone).toEqual(want);
    const plain = nodes.filter((n) => !hops.some((h) => h.id === n.id)).slice(0, 3);
    for (const node of plain) {
      const config = (await get(`/nodes/${node.id}/config`, admin.token)).body;
      expect(config.routingRevision).toBe(end.routingRevision);
      expect(config.routingIntent.map((e: { policyId: string }) => e.policyId).sort()).toEqual([...expected.policies.keys()].sort());
      expect(config.peers.map((p: { nodeId: string }) => p.nodeId).sort()).toEqual(
        nodes
          .map((n) => n.id)
          .filter((id) => id !== node.id)
          .sort(),
      );
    }
  }, 60_000);
});

/** A random-but-seeded mix; deletes and replaces only target what an earlier wave created. */
function nextOp(admin: Session, networkId: string, hops: string[], expected: Expected, n: number): Op {
  const pick = <T>(map: Map<string, T>) => {
    const key = [...map.keys()].find((id) => !hops.includes(id) && !claimed.has(id));
    if (key) claimed.add(key);
    return key;
  };
  const choice = n % 9;
  const send = (method: string, path: string, body?: unknown) => () => call(method, path, { token: admin.token, body });
  if (choice === 3 || choice === 6) {
    const id = pick(expected.nodes);
    if (id && choice === 3)
      return {
        label: "rename node",
        kind: "both",
        send: send("PATCH", `/nodes/${id}`, { name: `renamed-${n}` }),
        revisionOf: "routing",
        apply: () => expected.nodes.set(id, `renamed-${n}`),
      };
    if (id) return { label: "delete node", kind: "both", send: send("DELETE", `/nodes/${id}`), apply: () => expected.nodes.delete(id) };
  }
  if (choice === 4 || choice === 7) {
    const id = pick(expected.policies);
    const body = { name: `policy-${n}`, type: "via_gateway", destinationCidr: `172.20.${n}.0/24`, gatewayPath: [hops[n % 2]!] };
    if (id && choice === 4)
      return {
        label: "replace policy",
        kind: "routing",
        send: send("PUT", `/routing-policies/${id}`, body),
        revisionOf: "routing",
        apply: () => expected.policies.set(id, body.name),
      };
    if (id)
      return {
        label: "delete policy",
        kind: "routing",
        send: send("DELETE", `/routing-policies/${id}`),
        apply: () => expected.policies.delete(id),
      };
  }
  if (choice === 5 || choice === 8) {
    const id = pick(expected.records);
    const body = { name: `rec-${n}`, type: "A", value: `10.90.15.${n % 250}` };
    if (id && choice === 5)
      return {
        label: "replace record",
        kind: "dns",
        send: send("PUT", `/dns/records/${id}`, body),
        revisionOf: "dns",
        apply: () => expected.records.set(id, { name: body.name, value: body.value }),
      };
    if (id)
      return { label: "delete record", kind: "dns", send: send("DELETE", `/dns/records/${id}`), apply: () => expected.records.delete(id) };
  }
  if (choice % 3 === 1) {
    const body = { name: `policy-${n}`, type: "via_gateway", destinationCidr: `172.20.${n}.0/24`, gatewayPath: [hops[n % 2]!] };
    return {
      label: "create policy",
      kind: "routing",
      send: send("POST", `/networks/${networkId}/routing-policies`, body),
      revisionOf: "routing",
      apply: (b) => expected.policies.set(b.id, body.name),
    };
  }
  if (choice % 3 === 2) {
    const body = { name: `rec-${n}`, type: "A", value: `10.90.15.${n % 250}` };
    return {
      label: "create record",
      kind: "dns",
      send: send("POST", `/networks/${networkId}/dns/records`, body),
      revisionOf: "dns",
      apply: (b) => expected.records.set(b.id, { name: body.name, value: body.value }),
    };
  }
  return {
    label: "create node",
    kind: "both",
    send: send("POST", "/nodes", { networkId, name: `node-${n}`, publicKey: fakePublicKey() }),
    revisionOf: "routing",
    apply: (b) => expected.nodes.set(b.id, `node-${n}`),
  };
}

/** Ids already targeted by a delete or replace in flight: each is touched by one write only. */
const claimed = new Set<string>();
