import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { unwrap } from "../../src/lib/write-result";
import type { AuditContext } from "../../src/services/audit/audit-trail";
import { networkWriter } from "../../src/objects/network/client";
import { get, patch, post } from "../helpers/api";
import { createUser, fakePublicKey, gatewayNetwork, type Session, signInAdmin, unique } from "../helpers/factories";
import { countRows, revisionsOf } from "../helpers/state";

/**
 * Issue 30 item 5: concurrent writes of one network commit together (runner/combined-commits.ts). Each is
 * still all or nothing with its audit row and revision bump, a refused one fails alone, and nothing
 * acknowledged is lost. The writer's stats count the combined batches and the writes they carried.
 */
let admin: Session;
beforeAll(async () => {
  admin = await signInAdmin();
});

const stats = async (networkId: string) => (await get(`/networks/${networkId}/writer`, admin.token)).body;

const record = (name = unique("r")) => ({ name, type: "A" as const, value: "10.9.9.9", ttl: 300 });

describe("concurrent writes of one network", () => {
  it("commit together: every acknowledged write is in D1 with its audit row, revisions gapless and one per write", async () => {
    const { network, hops } = await gatewayNetwork(admin, 1);
    const start = (await revisionsOf(network.id))!;
    const before = await stats(network.id);
    const nodeWrites = Array.from({ length: 30 }, (_, i) =>
      post("/nodes", { networkId: network.id, name: `c${i}`, publicKey: fakePublicKey() }, admin.token),
    );
    const recordWrites = Array.from({ length: 20 }, () => post(`/networks/${network.id}/dns/records`, record(), admin.token));
    const policyWrites = Array.from({ length: 10 }, (_, i) =>
      post(
        `/networks/${network.id}/routing-policies`,
        { name: `p${i}`, type: "via_gateway", destinationCidr: `172.21.${i}.0/24`, gatewayPath: [hops[0]!.id] },
        admin.token,
      ),
    );
    const [nodes, records, policies] = await Promise.all([Promise.all(nodeWrites), Promise.all(recordWrites), Promise.all(policyWrites)]);
    for (const answer of [...nodes, ...records, ...policies]) expect(answer.status).toBe(201);

    // Writes shared batches (fewer batches than the writes they carried), and none had to run again.
    const after = await stats(network.id);
    expect(after.combinedWrites - before.combinedWrites).toBeGreaterThanOrEqual(50);
    expect(after.batches - before.batches).toBeLessThan(after.combinedWrites - before.combinedWrites);
    expect(after.retriedAlone - before.retriedAlone).toBe(0);

    // Every acknowledged write is in D1, with its own audit row.
    const written = [
      ...nodes.map((answer) => ["nodes", answer.body.id as string]),
      ...records.map((answer) => ["dns_records", answer.body.id as string]),
      ...policies.map((answer) => ["routing_policies", answer.body.id as string]),
    ];
    for (const [table, id] of written) {
      expect(await countRows(`select count(*) as n from ${table} where id = ?`, id)).toBe(1);
      expect(await countRows("select count(*) as n from audit_events where resource_id = ?", id)).toBe(1);
    }

    // Each write moved its revisions by one, in the order they committed: node and policy rows hold distinct
    // routing revisions ending at the network's, records distinct DNS revisions.
    const end = (await revisionsOf(network.id))!;
    expect(end.routing).toBe(start.routing + 40);
    expect(end.dns).toBe(start.dns + 50);
    const routing = [...nodes, ...policies].map((answer) => answer.body.revision as number).sort((a, b) => a - b);
    expect(routing).toEqual(Array.from({ length: 40 }, (_, i) => start.routing + 1 + i));
    expect(new Set(records.map((answer) => answer.body.revision)).size).toBe(20);
    expect(Math.max(...records.map((answer) => answer.body.revision as number))).toBeLessThanOrEqual(end.dns);

    // The held copy equals D1: the network's config names every node and policy.
    const config = (await get(`/nodes/${nodes[0]!.body.id}/config`, admin.token)).body;
    expect(config.routingRevision).toBe(end.routing);
    expect(config.peers).toHaveLength(30); // 29 other nodes and the gateway
  });

  it("renames and routing-policy writes commit together too: their reads of settings, inventory and members wait for no batch", async () => {
    const { network, hops } = await gatewayNetwork(admin, 1);
    const spare: { id: string }[] = [];
    for (let i = 0; i < 20; i++) {
      spare.push((await post("/nodes", { networkId: network.id, name: `s${i}`, publicKey: fakePublicKey() }, admin.token)).body);
    }
    const before = await stats(network.id);
    const renames = spare.map((node, i) => patch(`/nodes/${node.id}`, { name: `renamed-${i}` }, admin.token));
    const policies = Array.from({ length: 10 }, (_, i) =>
      post(
        `/networks/${network.id}/routing-policies`,
        { name: `q${i}`, type: "via_gateway", destinationCidr: `172.22.${i}.0/24`, gatewayPath: [hops[0]!.id] },
        admin.token,
      ),
    );
    const [renamed, created] = await Promise.all([Promise.all(renames), Promise.all(policies)]);
    expect(renamed.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(created.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    const after = await stats(network.id);
    expect(after.combinedWrites - before.combinedWrites).toBe(30);
    expect(after.batches - before.batches).toBeLessThan(30);
    expect(after.retriedAlone - before.retriedAlone).toBe(0);
    for (const [i, node] of spare.entries()) {
      expect(await countRows("select count(*) as n from nodes where id = ? and name = ?", node.id, `renamed-${i}`)).toBe(1);
    }
    for (const answer of created)
      expect(await countRows("select count(*) as n from audit_events where resource_id = ?", answer.body.id)).toBe(1);
  });

  it("a write refused inside a combined batch (its user demoted after the Worker's check) fails alone", async () => {
    const { group, network } = await gatewayNetwork(admin, 1);
    const user = await createUser(admin);
    expect((await post(`/groups/${group.id}/members`, { userId: user.userId, role: "admin" }, admin.token)).status).toBe(201);
    expect((await patch(`/groups/${group.id}/members/${user.userId}`, { role: "member" }, admin.token)).status).toBe(200);
    const asDemoted: AuditContext = {
      actor: { type: "user", id: user.userId },
      requestId: newId("req"),
      method: "POST",
      route: "/networks/:id/dns/records",
      params: {},
      status: 200,
    };
    const writer = networkWriter(env, network.id);
    const before = await stats(network.id);
    // The refused writes reach the writer among good ones, so they are staged into shared batches.
    const good = Array.from({ length: 24 }, () => post(`/networks/${network.id}/dns/records`, record(), admin.token));
    const refused = Array.from({ length: 3 }, () =>
      unwrap(writer.createDnsRecord(network.id, record(), asDemoted)).then(
        () => 0,
        (e) => e.status,
      ),
    );
    const [answers, refusals] = await Promise.all([Promise.all(good), Promise.all(refused)]);

    expect(answers.map((answer) => answer.status)).toEqual(Array(24).fill(201));
    expect(refusals).toEqual([403, 403, 403]);
    for (const answer of answers) expect(await countRows("select count(*) as n from dns_records where id = ?", answer.body.id)).toBe(1);
    expect(await countRows("select count(*) as n from dns_records where network_id = ?", network.id)).toBe(24);
    expect(await countRows("select count(*) as n from audit_events where actor_id = ? and network_id = ?", user.userId, network.id)).toBe(
      0,
    );
    const after = await stats(network.id);
    // A batch with a refused write failed whole; its writes ran again alone (the good ones committed then).
    expect(after.retriedAlone - before.retriedAlone).toBeGreaterThanOrEqual(3);
    const end = (await revisionsOf(network.id))!;
    const records = (await get(`/networks/${network.id}/dns/records?limit=100`, admin.token)).body.items as { revision: number }[];
    expect(Math.max(...records.map((row) => row.revision))).toBe(end.dns);
  });

  it("a change that went around the writer while writes were staged fails their batch, and they commit alone", async () => {
    const { network } = await gatewayNetwork(admin, 1);
    const writes = Array.from({ length: 20 }, () => post(`/networks/${network.id}/dns/records`, record(), admin.token));
    // Behind the writer's back: D1's revision moves, so the held copy is stale and a batch staged on it must fail.
    await env.DB.prepare("update networks set dns_revision = dns_revision + 100 where id = ?").bind(network.id).run();
    const answers = await Promise.all(writes);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(await countRows("select count(*) as n from dns_records where network_id = ?", network.id)).toBe(20);
    const end = (await revisionsOf(network.id))!;
    const revisions = answers.map((answer) => answer.body.revision as number);
    expect(new Set(revisions).size).toBe(20);
    expect(Math.max(...revisions)).toBe(end.dns);
  });

  it("a network change among staged writes (its group's writer writes the row) waits for them: no revision lost", async () => {
    const { network } = await gatewayNetwork(admin, 1);
    const start = (await revisionsOf(network.id))!;
    const creates = Array.from({ length: 20 }, (_, i) =>
      post("/nodes", { networkId: network.id, name: `m${i}`, publicKey: fakePublicKey() }, admin.token),
    );
    const renamed = patch(`/networks/${network.id}`, { dnsDomain: `${unique("d")}.internal` }, admin.token);
    const [answers, change] = await Promise.all([Promise.all(creates), renamed]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(change.status).toBe(200);
    // Each node create bumps both revisions, the new domain both once more.
    expect(await revisionsOf(network.id)).toEqual({ routing: start.routing + 21, dns: start.dns + 21 });
    const config = (await get(`/nodes/${answers[0]!.body.id}/config`, admin.token)).body;
    expect(config.routingRevision).toBe(start.routing + 21);
  });
});
