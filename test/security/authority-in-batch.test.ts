import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import type { AuditContext } from "../../src/services/audit/audit-trail";
import { unwrap } from "../../src/lib/write-result";
import { networkWriter } from "../../src/objects/network/client";
import { del, patch, post } from "../helpers/api";
import { createUser, enrolDevice, fakePublicKey, gatewayNetwork, signInAdmin, unique, type Session } from "../helpers/factories";

/**
 * Issue 25 item 2: a write a user asked for re-checks that user's authority inside its own batch
 * (docs/architecture.md, "Authority inside the batch"). The race is staged without timing: the Worker's
 * check passed (the user managed the network), then the membership changed, and only then does the write
 * reach the network's writer, carrying the request it serves. Each write must change nothing and answer
 * as a fresh check would; the same write sent while the role still holds commits (so the refusal is the
 * re-check's, not a broken input's).
 */
let admin: Session;
beforeAll(async () => {
  admin = await signInAdmin();
});

const asUser = (userId: string, route: string): AuditContext => ({
  actor: { type: "user", id: userId },
  requestId: newId("req"),
  method: "POST",
  route,
  params: {},
  status: 200,
});

const count = async (query: string, ...binds: unknown[]) =>
  (await env.DB.prepare(query)
    .bind(...binds)
    .first<{ n: number }>())!.n;

/** A network with one gateway hop, and a user who is an admin of its group. */
async function managedNetwork() {
  const { group, network, hops } = await gatewayNetwork(admin, 1);
  const user = await createUser(admin);
  expect((await post(`/groups/${group.id}/members`, { userId: user.userId, role: "admin" }, admin.token)).status).toBe(201);
  const demote = async () =>
    expect((await patch(`/groups/${group.id}/members/${user.userId}`, { role: "member" }, admin.token)).status).toBe(200);
  return { group, network, gateway: hops[0]!, user, demote };
}

const policy = (gatewayId: string) => ({
  name: unique("p"),
  type: "via_gateway" as const,
  destinationCidr: `172.30.${Math.floor(Math.random() * 250)}.0/24`,
  gatewayPath: [gatewayId],
});
const record = () => ({ name: unique("r"), type: "A" as const, value: "10.9.9.9", ttl: 300 });

describe("a write re-checks its user's authority inside its batch", () => {
  it("policy, node, DNS and network writes by an admin demoted after the Worker's check change nothing (403)", async () => {
    const { network, gateway, user, demote } = await managedNetwork();
    const writer = networkWriter(env, network.id);
    const as = (route: string) => asUser(user.userId, route);
    const caller = { userId: user.userId, platformRole: "user" as const };

    // While the role holds, each write commits.
    const kept = await unwrap(writer.createPolicy(network.id, policy(gateway.id), caller, as("/networks/:id/routing-policies")));
    const keptRecord = await unwrap(writer.createDnsRecord(network.id, record(), as("/networks/:id/dns/records")));
    const keptNode = await unwrap(writer.createNode(network.id, { name: unique("n"), publicKey: fakePublicKey() }, as("/nodes")));

    await demote();
    const before = await env.DB.prepare("select routing_revision as r, dns_revision as d, name from networks where id = ?")
      .bind(network.id)
      .first();
    const refused = [
      unwrap(writer.createPolicy(network.id, policy(gateway.id), caller, as("/networks/:id/routing-policies"))),
      unwrap(writer.deletePolicy(network.id, kept.id, caller, as("/routing-policies/:id"))),
      unwrap(writer.createDnsRecord(network.id, record(), as("/networks/:id/dns/records"))),
      unwrap(writer.deleteDnsRecord(network.id, keptRecord.id, as("/dns/records/:id"))),
      unwrap(writer.createNode(network.id, { name: unique("n"), publicKey: fakePublicKey() }, as("/nodes"))),
      unwrap(writer.updateNode(network.id, keptNode.id, { name: unique("m") }, as("/nodes/:id"))),
      unwrap(writer.deleteNode(network.id, keptNode.id, as("/nodes/:id"))),
      unwrap(writer.updateNetwork(network.id, network.groupId, { name: unique("net") }, as("/networks/:id"))),
    ];
    for (const attempt of refused) await expect(attempt).rejects.toMatchObject({ status: 403 });

    const after = await env.DB.prepare("select routing_revision as r, dns_revision as d, name from networks where id = ?")
      .bind(network.id)
      .first();
    expect(after).toEqual(before);
    expect(await count("select count(*) as n from routing_policies where network_id = ?", network.id)).toBe(1);
    expect(await count("select count(*) as n from dns_records where network_id = ?", network.id)).toBe(1);
    expect(await count("select count(*) as n from nodes where id = ? and name = ?", keptNode.id, keptNode.name)).toBe(1);
    // Nothing refused left an audit row: the guard rolled the whole batch back, audit row included.
    expect(await count("select count(*) as n from audit_events where actor_id = ? and network_id = ?", user.userId, network.id)).toBe(3);
  });

  it("a removed user's write is 404, a disabled user's 401", async () => {
    const removed = await managedNetwork();
    expect((await del(`/groups/${removed.group.id}/members/${removed.user.userId}`, admin.token)).status).toBe(204);
    await expect(
      unwrap(
        networkWriter(env, removed.network.id).createDnsRecord(
          removed.network.id,
          record(),
          asUser(removed.user.userId, "/networks/:id/dns/records"),
        ),
      ),
    ).rejects.toMatchObject({ status: 404 });

    const disabled = await managedNetwork();
    expect((await patch(`/users/${disabled.user.userId}`, { disabled: true }, admin.token)).status).toBe(200);
    await expect(
      unwrap(
        networkWriter(env, disabled.network.id).createDnsRecord(
          disabled.network.id,
          record(),
          asUser(disabled.user.userId, "/networks/:id/dns/records"),
        ),
      ),
    ).rejects.toMatchObject({ status: 401 });
    const records = await count(
      "select count(*) as n from dns_records where network_id in (?, ?)",
      removed.network.id,
      disabled.network.id,
    );
    expect(records).toBe(0);
  });

  it("a device's owner renames it while a member; demoted to viewer before the write commits, the rename is refused (404)", async () => {
    const { group, network, user } = await managedNetwork();
    expect((await patch(`/groups/${group.id}/members/${user.userId}`, { role: "member" }, admin.token)).status).toBe(200);
    const device = await enrolDevice(user, { networkId: network.id });
    const rename = (name: string) =>
      unwrap(networkWriter(env, network.id).renameDevice(network.id, device.nodeId, name, asUser(user.userId, "/devices/:id")));

    await rename(unique("mine"));
    // Demotion removes the owner's devices afterwards; the stale rename must not land first.
    await env.DB.prepare("update memberships set role = 'viewer' where group_id = ? and user_id = ?").bind(group.id, user.userId).run();
    await expect(rename(unique("late"))).rejects.toMatchObject({ status: 404 });
  });
});
