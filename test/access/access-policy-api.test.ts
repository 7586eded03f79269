// The access policy through the API (docs/access.md): the document with its tests, revisions and If-Match,
// the mode switch, what configs then carry, preview and access-check, refusals and the audit trail.
import { describe, expect, it } from "vitest";
import { call, get, patch, post } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import { createNode, networkSetup } from "../helpers/factories";

const putPolicy = (networkId: string, body: unknown, token: string, ifMatch?: string) =>
  call("PUT", `/networks/${networkId}/access-policy`, { body, token, headers: ifMatch ? { "If-Match": ifMatch } : {} });

async function threeNodes() {
  const setup = await networkSetup();
  const [a, b, c] = [
    await createNode(setup.admin, setup.network.id),
    await createNode(setup.admin, setup.network.id),
    await createNode(setup.admin, setup.network.id),
  ];
  return { ...setup, a: a!, b: b!, c: c! };
}

const peersOf = async (nodeId: string, token: string) =>
  ((await get(`/nodes/${nodeId}/config`, token)).body.peers as { nodeId: string }[]).map((peer) => peer.nodeId).sort();

describe("the access policy document", () => {
  it("refuses a PUT whose tests fail (every failure listed) or whose rules are malformed, and changes nothing", async () => {
    const { admin, network, a, b } = await threeNodes();
    expect((await get(`/networks/${network.id}/access-policy`, admin.token)).body).toMatchObject({
      revision: 0,
      mode: "open",
      rules: [],
      tests: [],
    });
    const failing = await putPolicy(
      network.id,
      {
        rules: [{ action: "allow", src: [`node:${a.id}`], dst: [`node:${b.id}`], ports: ["tcp:443"] }],
        tests: [
          { src: `node:${a.id}`, dst: `node:${b.id}`, port: "tcp:443", expect: "allow" },
          { src: `node:${a.id}`, dst: `node:${b.id}`, port: "tcp:22", expect: "allow" },
          { src: `node:${b.id}`, dst: `node:${a.id}`, port: "icmp", expect: "allow" },
        ],
      },
      admin.token,
    );
    expectError(failing, 400, "validation_error");
    expect(failing.body.error.fields.map((f: { path: string }) => f.path)).toEqual(["tests.1", "tests.2"]);
    const malformed = await putPolicy(
      network.id,
      { rules: [{ action: "allow", src: ["tag:Web"], dst: ["*"], ports: ["tcp:0"] }] },
      admin.token,
    );
    expectError(malformed, 422, "VALIDATION_ERROR", ["rules.0.src.0", "rules.0.ports.0"]);
    expect((await get(`/networks/${network.id}/access-policy`, admin.token)).body.revision).toBe(0);
  });

  it("in policy mode configs hold only allowed pairs and carry each node's inbound filter; If-Match guards revisions", async () => {
    const { admin, network, a, b, c, as } = await threeNodes();
    const document = {
      rules: [{ action: "allow", src: [`node:${a.id}`], dst: [`node:${b.id}`], ports: ["tcp:443"] }],
      tests: [{ src: `node:${a.id}`, dst: `node:${b.id}`, port: "tcp:443", expect: "allow" }],
    };
    const first = await putPolicy(network.id, document, admin.token, '"0"');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ revision: 1, mode: "open", rules: document.rules });
    // Open mode stores the policy without enforcing it.
    expect(await peersOf(a.id, admin.token)).toEqual([b.id, c.id].sort());
    expectError(await putPolicy(network.id, document, admin.token, '"0"'), 412, "precondition_failed");

    expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).body.accessMode).toBe("policy");
    expect(await peersOf(a.id, admin.token)).toEqual([b.id]);
    expect(await peersOf(c.id, admin.token)).toEqual([]);
    const config = (await get(`/nodes/${b.id}/config`, admin.token)).body;
    expect(config.accessRules).toEqual([{ ports: ["tcp:443"], from: [`${a.address}/32`] }]);

    const viewer = await as("viewer");
    expectError(await putPolicy(network.id, document, viewer.token), 403, "forbidden");
    const audit = await get(`/audit?networkId=${network.id}`, admin.token);
    // The audit row names the revision written (the one before it is always one less).
    const puts = audit.body.items.filter(
      (row: { route: string; method: string }) => row.route === "/networks/:id/access-policy" && row.method === "PUT",
    );
    expect(puts.map((row: { resourceId: string; status: number }) => [row.resourceId, row.status])).toEqual([[`${network.id}@1`, 200]]);
  });

  it("preview says what a candidate changes without applying it; access-check names the deciding rule", async () => {
    const { admin, network, a, b, c } = await threeNodes();
    const document = { rules: [{ action: "allow", src: [`node:${a.id}`], dst: [`node:${b.id}`], ports: ["tcp:443"] }], tests: [] };
    expect((await putPolicy(network.id, document, admin.token)).status).toBe(200);
    expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).status).toBe(200);
    const candidate = {
      rules: [...document.rules, { action: "allow", src: [`node:${a.id}`], dst: [`node:${c.id}`], ports: ["icmp"] }],
      tests: [{ src: `node:${c.id}`, dst: `node:${a.id}`, port: "icmp", expect: "allow" }],
    };
    const preview = (await post(`/networks/${network.id}/access-policy/preview`, candidate, admin.token)).body;
    expect(preview.peers).toEqual(
      expect.arrayContaining([
        { nodeId: a.id, added: [c.id], removed: [] },
        { nodeId: c.id, added: [a.id], removed: [] },
      ]),
    );
    expect(preview.failingTests.map((f: { path: string }) => f.path)).toEqual(["tests.0"]);
    expect(await peersOf(a.id, admin.token)).toEqual([b.id]);

    const check = (dst: string, port: string) =>
      get(`/networks/${network.id}/access-check?src=${a.id}&dst=${dst}&port=${port}`, admin.token);
    expect((await check(b.id, "tcp:443")).body).toMatchObject({ allowed: true, rule: { index: 0, action: "allow" } });
    expect((await check(b.id, "tcp:22")).body).toEqual({ allowed: false, rule: null });
    expect((await check(c.address as string, "icmp")).body).toEqual({ allowed: false, rule: null });
  });
});

describe("tags", () => {
  it("owners and admins tag nodes; rules over tags follow the tags into every config; a member cannot tag", async () => {
    const { admin, network, a, b, c, as } = await threeNodes();
    expect((await patch(`/nodes/${a.id}`, { tags: ["tag:dev"] }, admin.token)).body.tags).toEqual(["tag:dev"]);
    expect((await patch(`/nodes/${b.id}`, { tags: ["tag:web"] }, admin.token)).body.tags).toEqual(["tag:web"]);
    expectError(await patch(`/nodes/${c.id}`, { tags: ["tag:Web"] }, admin.token), 422, "VALIDATION_ERROR", ["tags.0"]);
    expectError(await patch(`/nodes/${c.id}`, { tags: ["tag:a", "tag:a"] }, admin.token), 422, "VALIDATION_ERROR", ["tags"]);
    const document = {
      rules: [{ action: "allow", src: ["tag:dev"], dst: ["tag:web"], ports: ["tcp:443"] }],
      tests: [{ src: "tag:dev", dst: "tag:web", port: "tcp:443", expect: "allow" }],
    };
    expect((await putPolicy(network.id, document, admin.token)).status).toBe(200);
    expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).status).toBe(200);
    expect(await peersOf(c.id, admin.token)).toEqual([]);
    // Tagging c as a developer gives it the web server as a peer at the next revision.
    expect((await patch(`/nodes/${c.id}`, { tags: ["tag:dev"] }, admin.token)).status).toBe(200);
    expect(await peersOf(c.id, admin.token)).toEqual([b.id]);
    const member = await as("member");
    expectError(await patch(`/nodes/${c.id}`, { tags: [] }, member.token), 403, "forbidden");
  });
});
