// "Who can reach this node and why" (docs/access.md): GET /networks/:id/access-sources answers every node that
// may send a node something, by groups of nodes alike, with the ports and the allows and denies that decide them.
import { describe, expect, it } from "vitest";
import { call, get, patch } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import { createNode, networkSetup } from "../helpers/factories";

const sourcesOf = (networkId: string, dst: string, token: string) => get(`/networks/${networkId}/access-sources?dst=${dst}`, token);

describe("access sources", () => {
  it("lists who may reach a node with the ports and rules, as the policy decides; open mode is everyone by no rule", async () => {
    const { admin, network } = await networkSetup();
    const [a, b, c] = [
      (await createNode(admin, network.id))!,
      (await createNode(admin, network.id))!,
      (await createNode(admin, network.id))!,
    ];
    const open = await sourcesOf(network.id, b.id, admin.token);
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ mode: "open", revision: 0, dst: b.id, nodesAllowed: 2, truncated: false });
    expect(open.body.sources).toEqual([{ nodeIds: [a.id, c.id], nodeCount: 2, ports: ["*"], allowedBy: [], deniedBy: [] }]);

    const document = {
      rules: [
        { action: "allow", src: [`node:${a.id}`], dst: [`node:${b.id}`], ports: ["tcp:443"] },
        { action: "allow", src: ["*"], dst: [`node:${b.id}`], ports: ["tcp"] },
        { action: "deny", src: [`node:${c.id}`], dst: ["*"], ports: ["tcp:22"] },
        { action: "allow", src: [`node:${b.id}`], dst: [`node:${a.id}`], ports: ["icmp"] },
      ],
      tests: [],
    };
    expect((await call("PUT", `/networks/${network.id}/access-policy`, { body: document, token: admin.token })).status).toBe(200);
    expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).status).toBe(200);
    const policy = (await sourcesOf(network.id, b.id, admin.token)).body;
    expect(policy).toMatchObject({ mode: "policy", revision: 1, nodesAllowed: 2, truncated: false });
    expect(policy.sources).toEqual(
      expect.arrayContaining([
        { nodeIds: [a.id], nodeCount: 1, ports: ["tcp"], allowedBy: [0, 1], deniedBy: [] },
        { nodeIds: [c.id], nodeCount: 1, ports: ["tcp:1-21", "tcp:23-65535"], allowedBy: [1], deniedBy: [2] },
      ]),
    );
    expect(policy.sources).toHaveLength(2);
    // b may reach a (icmp) but a is reached by nothing else; c is reached by no one.
    expect((await sourcesOf(network.id, a.id, admin.token)).body.sources).toEqual([
      { nodeIds: [b.id], nodeCount: 1, ports: ["icmp"], allowedBy: [3], deniedBy: [] },
    ]);
    expect((await sourcesOf(network.id, c.id, admin.token)).body).toMatchObject({ sources: [], nodesAllowed: 0 });
  });

  it("answers 404 for a node of another network and 401 without a token", async () => {
    const one = await networkSetup();
    const other = await networkSetup();
    const foreign = (await createNode(other.admin, other.network.id))!;
    expectError(await sourcesOf(one.network.id, foreign.id, one.admin.token), 404, "not_found");
    expect((await get(`/networks/${one.network.id}/access-sources?dst=${foreign.id}`)).status).toBe(401);
  });
});
