// `idp:<group>` access selectors (issue 43): a rule may name the directory's groups as it names roles, by a
// group's displayName or externalId; the network's writer holds each device owner's IdP groups, and a SCIM
// member add or remove, a rename or a deletion reaches what it holds at once, with no policy write.
import { describe, expect, it } from "vitest";
import { call, get, patch } from "../helpers/api";
import { createNode, enrolDevice, networkSetup, unique } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";
import { GROUP, scimClient } from "./scim-helpers";

const peersOf = async (nodeId: string, token: string) =>
  ((await get(`/nodes/${nodeId}/config`, token)).body.peers as { nodeId: string }[]).map((peer) => peer.nodeId).sort();

async function policyNetwork(src: string) {
  const setup = await networkSetup();
  const { admin, network } = setup;
  const web = await createNode(admin, network.id);
  expect((await patch(`/nodes/${web.id}`, { tags: ["tag:web"] }, admin.token)).status).toBe(200);
  const rules = [{ action: "allow", src: [src], dst: ["tag:web"], ports: ["tcp:443"] }];
  const put = await call("PUT", `/networks/${network.id}/access-policy`, { body: { rules, tests: [] }, token: admin.token });
  expect(put.status, put.text).toBe(200);
  expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).status).toBe(200);
  return { ...setup, web };
}

describe("idp: selectors follow the directory", () => {
  it("a member added to the IdP group reaches the web server at once; removed, they lose it; no policy write either time", async () => {
    const engineering = unique("Engineering Team");
    const { admin, network, web, as } = await policyNetwork(`idp:${engineering}`);
    const idp = await scimClient();
    const member = await as("member");
    const laptop = await enrolDevice(member, { networkId: network.id });
    expect(await peersOf(web.id, admin.token)).toEqual([]);
    const revision = async () => (await get(`/nodes/${web.id}/config`, admin.token)).body.routingRevision as number;
    const before = await revision();

    const group = (await idp.post("/Groups", { schemas: [GROUP], displayName: engineering, members: [{ value: member.userId }] })).body;
    expect(await peersOf(web.id, admin.token)).toEqual([laptop.nodeId]);
    expect(await peersOf(laptop.nodeId, admin.token)).toEqual([web.id]);
    const check = () => get(`/networks/${network.id}/access-check?src=${laptop.nodeId}&dst=${web.id}&port=tcp:443`, admin.token);
    expect((await check()).body).toMatchObject({ allowed: true, rule: { index: 0 } });
    expect(await revision()).toBe(before + 1);

    expect((await idp.patch(`/Groups/${group.id}`, [{ op: "remove", path: `members[value eq "${member.userId}"]` }])).status).toBe(204);
    expect(await peersOf(web.id, admin.token)).toEqual([]);
    expect((await check()).body).toEqual({ allowed: false, rule: null });
    // Their membership was given by hand: leaving the IdP group takes their access rule away, not their device.
    expect((await call("POST", `/client/devices/${laptop.deviceId}/config`, { token: laptop.deviceToken })).status).toBe(200);
  });

  it("names a group by externalId too; a rename or a deletion of the group is followed", async () => {
    const externalId = crypto.randomUUID();
    const { admin, network, web, as } = await policyNetwork(`idp:${externalId}`);
    const idp = await scimClient();
    const member = await as("member");
    const laptop = await enrolDevice(member, { networkId: network.id });
    const group = (
      await idp.post("/Groups", { schemas: [GROUP], displayName: unique("ops"), externalId, members: [{ value: member.userId }] })
    ).body;
    expect(await peersOf(web.id, admin.token)).toEqual([laptop.nodeId]);
    expect((await idp.patch(`/Groups/${group.id}`, [{ op: "replace", path: "externalId", value: crypto.randomUUID() }])).status).toBe(204);
    expect(await peersOf(web.id, admin.token)).toEqual([]);
    expect((await idp.patch(`/Groups/${group.id}`, [{ op: "replace", path: "externalId", value: externalId }])).status).toBe(204);
    expect(await peersOf(web.id, admin.token)).toEqual([laptop.nodeId]);
    expect((await idp.del(`/Groups/${group.id}`)).status).toBe(204);
    expect(await peersOf(web.id, admin.token)).toEqual([]);
  });

  it("a device enrolled by someone already in the group is matched in the enrolment's own answer", async () => {
    const name = unique("devs");
    const { admin, network, web, as } = await policyNetwork(`idp:${name}`);
    const idp = await scimClient();
    const member = await as("member");
    expect((await idp.post("/Groups", { schemas: [GROUP], displayName: name, members: [{ value: member.userId }] })).status).toBe(201);
    const laptop = await enrolDevice(member, { networkId: network.id });
    expect(laptop.body.config.peers.map((peer: { nodeId: string }) => peer.nodeId)).toEqual([web.id]);
    expect(await peersOf(web.id, admin.token)).toEqual([laptop.nodeId]);
  });

  it("refuses an idp: selector with nothing after it or spaces around the name", async () => {
    const { admin, network } = await networkSetup();
    for (const selector of ["idp:", "idp: padded", `idp:${"x".repeat(255)}`]) {
      const rules = [{ action: "allow", src: [selector], dst: ["*"], ports: ["*"] }];
      expectError(
        await call("PUT", `/networks/${network.id}/access-policy`, { body: { rules, tests: [] }, token: admin.token }),
        422,
        "VALIDATION_ERROR",
      );
    }
  });
});
