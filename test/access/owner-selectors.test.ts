// `user:` and `role:` selectors follow membership (docs/access.md): the network's writer holds whose each
// device is, and a role change, a removal or a device enrolled after it loaded the network reach what it
// holds at once, without a policy write. Every test reads a config first, so the writer holds the network
// before the change it must follow.
import { describe, expect, it } from "vitest";
import { call, del, get, patch } from "../helpers/api";
import { createNode, enrolDevice, networkSetup } from "../helpers/factories";

const peersOf = async (nodeId: string, token: string) =>
  ((await get(`/nodes/${nodeId}/config`, token)).body.peers as { nodeId: string }[]).map((peer) => peer.nodeId).sort();

/** A network in policy mode with one tagged web server and `rules` in force. */
async function policyNetwork(rules: unknown[]) {
  const setup = await networkSetup();
  const { admin, network } = setup;
  const web = await createNode(admin, network.id);
  expect((await patch(`/nodes/${web.id}`, { tags: ["tag:web"] }, admin.token)).status).toBe(200);
  expect((await call("PUT", `/networks/${network.id}/access-policy`, { body: { rules, tests: [] }, token: admin.token })).status).toBe(200);
  expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).status).toBe(200);
  return { ...setup, web };
}

describe("owner selectors follow membership", () => {
  it("role:member allows members' devices; a promotion, a demotion and a removal change who is allowed with no policy write", async () => {
    const { admin, group, network, web, as } = await policyNetwork([
      { action: "allow", src: ["role:member"], dst: ["tag:web"], ports: ["tcp:443"] },
    ]);
    const member = await as("member");
    const laptop = await enrolDevice(member, { networkId: network.id });
    expect(await peersOf(web.id, admin.token)).toEqual([laptop.nodeId]);
    const check = () => get(`/networks/${network.id}/access-check?src=${laptop.nodeId}&dst=${web.id}&port=tcp:443`, admin.token);
    expect((await check()).body).toMatchObject({ allowed: true, rule: { index: 0 } });
    const revision = async () => (await get(`/nodes/${web.id}/config`, admin.token)).body.routingRevision as number;
    const before = await revision();

    const setRole = (role: string) => patch(`/groups/${group.id}/members/${member.userId}`, { role }, admin.token);
    expect((await setRole("admin")).status).toBe(200);
    expect(await peersOf(web.id, admin.token)).toEqual([]);
    expect(await peersOf(laptop.nodeId, admin.token)).toEqual([]);
    expect((await check()).body).toEqual({ allowed: false, rule: null });
    // Configs are served per revision: the role change moved it, so a device holding the old one is told.
    expect(await revision()).toBe(before + 1);

    expect((await setRole("member")).status).toBe(200);
    expect(await peersOf(web.id, admin.token)).toEqual([laptop.nodeId]);
    expect((await check()).body.allowed).toBe(true);

    expect((await del(`/groups/${group.id}/members/${member.userId}`, admin.token)).status).toBe(204);
    expect(await peersOf(web.id, admin.token)).toEqual([]);
    expect((await get(`/networks/${network.id}/access-check?src=${web.id}&dst=${laptop.address}&port=icmp`, admin.token)).body).toEqual({
      allowed: false,
      rule: null,
    });
  });

  it("a device enrolled after the writer loaded the network is matched by user: and role: at once", async () => {
    const { admin, network, web, as } = await policyNetwork([]);
    const member = await as("member");
    const other = await as("member");
    const rules = [
      { action: "allow", src: [`user:${member.email}`], dst: ["tag:web"], ports: ["tcp:443"] },
      { action: "allow", src: ["role:member"], dst: ["tag:web"], ports: ["icmp"] },
    ];
    expect((await call("PUT", `/networks/${network.id}/access-policy`, { body: { rules, tests: [] }, token: admin.token })).status).toBe(
      200,
    );
    expect(await peersOf(web.id, admin.token)).toEqual([]);

    const mine = await enrolDevice(member, { networkId: network.id });
    // The enrolment's own answer already holds the web server as a peer.
    expect(mine.body.config.peers.map((peer: { nodeId: string }) => peer.nodeId)).toEqual([web.id]);
    const theirs = await enrolDevice(other, { networkId: network.id });
    expect(await peersOf(web.id, admin.token)).toEqual([mine.nodeId, theirs.nodeId].sort());
    const webRules = (await get(`/nodes/${web.id}/config`, admin.token)).body.accessRules;
    expect(webRules).toEqual([
      { ports: ["icmp"], from: [`${theirs.address}/32`] },
      { ports: ["icmp", "tcp:443"], from: [`${mine.address}/32`] },
    ]);
  });

  it("an open network, or rules that name no owner, take a role change without a new revision", async () => {
    const { admin, group, network, web, as } = await policyNetwork([{ action: "allow", src: ["*"], dst: ["tag:web"], ports: ["*"] }]);
    const member = await as("member");
    const laptop = await enrolDevice(member, { networkId: network.id });
    const revision = async () => (await get(`/nodes/${web.id}/config`, admin.token)).body.routingRevision as number;
    const before = await revision();
    expect((await patch(`/groups/${group.id}/members/${member.userId}`, { role: "admin" }, admin.token)).status).toBe(200);
    expect(await revision()).toBe(before);
    expect(await peersOf(web.id, admin.token)).toEqual([laptop.nodeId]);
  });
});
