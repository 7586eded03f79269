// Tags carried by enrolment keys (docs/access.md, "The model"): owners and admins make a key with tags, the
// devices it enrols get them, and every config follows at once; nobody below admin makes one, and the
// key's own write decides that (a creator who no longer manages the network leaves no key).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { issueEnrolmentKey } from "../../src/services/networks/enrolment-keys";
import { call, get, patch, post } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import { createNode, enrolDevice, networkSetup } from "../helpers/factories";

const keyRows = (networkId: string) =>
  env.DB.prepare("SELECT name, tags FROM enrolment_keys WHERE network_id = ?")
    .bind(networkId)
    .all<{ name: string; tags: string }>()
    .then((result) => result.results);

const peersOf = async (nodeId: string, token: string) =>
  ((await get(`/nodes/${nodeId}/config`, token)).body.peers as { nodeId: string }[]).map((peer) => peer.nodeId).sort();

describe("enrolment keys with tags", () => {
  it("the key shows its tags, its devices get them, and the policy reaches their configs and their peers' at once", async () => {
    const { admin, network } = await networkSetup();
    const web = await createNode(admin, network.id);
    expect((await patch(`/nodes/${web.id}`, { tags: ["tag:web"] }, admin.token)).status).toBe(200);
    const other = await createNode(admin, network.id);
    const document = { rules: [{ action: "allow", src: ["tag:dev"], dst: ["tag:web"], ports: ["tcp:443"] }], tests: [] };
    expect((await call("PUT", `/networks/${network.id}/access-policy`, { body: document, token: admin.token })).status).toBe(200);
    expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).status).toBe(200);
    // Read once, so the writer holds the network before the device arrives.
    expect(await peersOf(web.id, admin.token)).toEqual([]);

    const created = await post(`/networks/${network.id}/enrolment-keys`, { name: "laptops", tags: ["tag:dev"] }, admin.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "laptops", tags: ["tag:dev"] });
    const listed = await get(`/networks/${network.id}/enrolment-keys`, admin.token);
    expect(listed.body.items.map((key: { tags: string[] }) => key.tags)).toEqual([["tag:dev"]]);

    const laptop = await enrolDevice(null, { enrolmentKey: created.body.key });
    expect(laptop.body.node.tags).toEqual(["tag:dev"]);
    // The enrolment's own answer already carries the policy: the web server is its only peer.
    expect(laptop.body.config.peers.map((peer: { nodeId: string }) => peer.nodeId)).toEqual([web.id]);
    expect(await peersOf(web.id, admin.token)).toEqual([laptop.nodeId]);
    expect(await peersOf(other.id, admin.token)).toEqual([]);
    const webConfig = (await get(`/nodes/${web.id}/config`, admin.token)).body;
    expect(webConfig.accessRules).toEqual([{ ports: ["tcp:443"], from: [`${laptop.address}/32`] }]);
  });

  it("a key without tags enrols untagged devices; malformed tags are 422", async () => {
    const { admin, network } = await networkSetup();
    const plain = await post(`/networks/${network.id}/enrolment-keys`, { name: "plain" }, admin.token);
    expect(plain.body.tags).toEqual([]);
    expect((await enrolDevice(null, { enrolmentKey: plain.body.key })).body.node.tags).toEqual([]);
    const bad = await post(`/networks/${network.id}/enrolment-keys`, { name: "bad", tags: ["tag:Web", "tag:ok"] }, admin.token);
    expectError(bad, 422, "VALIDATION_ERROR", ["tags.0"]);
    const twice = await post(`/networks/${network.id}/enrolment-keys`, { name: "bad", tags: ["tag:a", "tag:a"] }, admin.token);
    expectError(twice, 422, "VALIDATION_ERROR", ["tags"]);
    expect((await keyRows(network.id)).map((row) => row.name)).toEqual(["plain"]);
  });

  it("a member or viewer making a key with tags is 403 and leaves no key", async () => {
    const { network, as } = await networkSetup();
    for (const role of ["member", "viewer"] as const) {
      const user = await as(role);
      const refused = await post(`/networks/${network.id}/enrolment-keys`, { name: "mine", tags: ["tag:web"] }, user.token);
      expectError(refused, 403, "forbidden");
    }
    expect(await keyRows(network.id)).toEqual([]);
  });

  it("the key's own write refuses a creator who does not manage the network: no key, no audit row", async () => {
    const { network, group, as } = await networkSetup();
    const member = await as("member");
    const audit = {
      actor: { type: "user" as const, id: member.userId },
      requestId: `req-${crypto.randomUUID()}`,
      method: "POST",
      route: "/networks/:id/enrolment-keys",
      params: { id: network.id },
      status: 201,
    };
    const input = { name: "sneaky", expiresInSeconds: 600, usageLimit: 1, tags: ["tag:web"] };
    const issued = await issueEnrolmentKey(createDb(env.DB), { id: network.id, groupId: group.id }, member.userId, input, audit);
    expect(issued).toBeNull();
    expect(await keyRows(network.id)).toEqual([]);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM audit_events WHERE request_id = ?")
      .bind(audit.requestId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });
});
