// An expired rule stops working without a write (docs/access.md): the network writer keeps its one alarm at
// the earliest of its needs, the next rule expiry among them; on it the writer compiles again at a new routing
// revision. The alarm is shared with the pool clock, so neither need may clobber the other.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get, patch } from "../helpers/api";
import { createNode, networkSetup } from "../helpers/factories";
import { chain, poolOf, setSeen } from "../gateway-pools/support";

const writerOf = (networkId: string) => env.NETWORK_WRITER.get(env.NETWORK_WRITER.idFromName(networkId));
const alarmOf = (networkId: string) => runInDurableObject(writerOf(networkId), (_writer, state) => state.storage.getAlarm());
const peersOf = async (nodeId: string, token: string) =>
  ((await get(`/nodes/${nodeId}/config`, token)).body.peers as { nodeId: string }[]).map((peer) => peer.nodeId).sort();
const revisionOf = async (networkId: string, token: string) => (await get(`/networks/${networkId}`, token)).body.routingRevision as number;
const putPolicy = (networkId: string, rules: unknown[], token: string) =>
  call("PUT", `/networks/${networkId}/access-policy`, { body: { rules, tests: [] }, token });
const expirySystemRows = async (networkId: string) =>
  (
    await env.DB.prepare("SELECT resource_id AS resourceId FROM audit_events WHERE network_id = ? AND route = 'access-policy.rule-expired'")
      .bind(networkId)
      .all<{ resourceId: string }>()
  ).results;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("access rule expiry", () => {
  it("an expired rule leaves configs at the writer's alarm, with a new revision and an audit row, and no write", async () => {
    const { admin, network } = await networkSetup();
    const [a, b, c] = [await createNode(admin, network.id), await createNode(admin, network.id), await createNode(admin, network.id)];
    // 2 s ahead: the PUT and the mode switch below take well under a second even on a loaded machine.
    const expiresAt = Date.now() + 2000;
    const rules = [
      { action: "allow", src: [`node:${a!.id}`], dst: [`node:${b!.id}`], ports: ["tcp:443"] },
      { action: "allow", src: [`node:${a!.id}`], dst: [`node:${c!.id}`], ports: ["*"], expiresAt: new Date(expiresAt).toISOString() },
    ];
    expect((await putPolicy(network.id, rules, admin.token)).status).toBe(200);
    expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).status).toBe(200);
    expect(await peersOf(a!.id, admin.token)).toEqual([b!.id, c!.id].sort());
    expect(await alarmOf(network.id), "the alarm sits just after the rule's expiry").toBe(expiresAt + 1);
    const before = await revisionOf(network.id, admin.token);

    // An alarm run before the expiry (only a test can) finds nothing lapsed and keeps the clock.
    expect(await runDurableObjectAlarm(writerOf(network.id))).toBe(true);
    expect(await revisionOf(network.id, admin.token)).toBe(before);
    expect(await alarmOf(network.id)).toBe(expiresAt + 1);

    // The runtime fires the alarm itself at expiresAt + 1: wait for the revision to move (10 s: 5x the 2 s ahead).
    const deadline = expiresAt + 10_000;
    while ((await revisionOf(network.id, admin.token)) === before && Date.now() < deadline) await sleep(100);
    expect(await revisionOf(network.id, admin.token)).toBe(before + 1);
    expect(await peersOf(a!.id, admin.token)).toEqual([b!.id]);
    expect(await peersOf(c!.id, admin.token)).toEqual([]);
    expect(await expirySystemRows(network.id)).toEqual([{ resourceId: `${network.id}@1` }]);
    expect(await alarmOf(network.id), "no expiry left, no pool: no alarm").toBeNull();
  });

  it("a pool's clock and a pending expiry share the alarm: the earliest fires, the other stays scheduled", async () => {
    const { admin, network, gw2, gw3, pool } = await chain();
    const expiresAt = Date.now() + 3_600_000;
    const rules = [{ action: "allow", src: ["*"], dst: ["*"], ports: ["*"], expiresAt: new Date(expiresAt).toISOString() }];
    expect((await putPolicy(network.id, rules, admin.token)).status).toBe(200);
    expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).status).toBe(200);
    // The pool checks (every 2 s) come first; the expiry an hour away did not push them back.
    const first = await alarmOf(network.id);
    expect(first).not.toBeNull();
    expect(first!).toBeLessThanOrEqual(Date.now() + 2000);

    await setSeen([gw2.id], 60);
    expect(await runDurableObjectAlarm(writerOf(network.id))).toBe(true);
    expect((await poolOf(pool.id, admin.token)).activeNodeId).toBe(gw3.id);
    const due = await runInDurableObject(writerOf(network.id), (_writer, state) => state.storage.get<number>("due:accessExpiry"));
    expect(due, "the expiry is still scheduled after the pool's run").toBe(expiresAt + 1);

    // Back to open mode: the expiry's clock goes, the pool's stays.
    expect((await patch(`/networks/${network.id}`, { accessMode: "open" }, admin.token)).status).toBe(200);
    const after = await alarmOf(network.id);
    expect(after).not.toBeNull();
    expect(after!).toBeLessThanOrEqual(Date.now() + 2000);
  });
});
