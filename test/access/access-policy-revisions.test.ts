// Revisions of the access policy through the API (docs/access.md, "Revisions and rollback"): every PUT is
// kept, listed newest first, readable as written, and rolling back is a PUT of an earlier one's document.
import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import { createNode, networkSetup } from "../helpers/factories";

const putPolicy = (networkId: string, body: unknown, token: string, ifMatch: number) =>
  call("PUT", `/networks/${networkId}/access-policy`, { body, token, headers: { "If-Match": `"${ifMatch}"` } });

describe("access policy revisions", () => {
  it("lists every PUT newest first in pages, reads one as written, and rolls back by PUTting it again", async () => {
    const { admin, network, as } = await networkSetup();
    const a = (await createNode(admin, network.id))!;
    const b = (await createNode(admin, network.id))!;
    const first = {
      rules: [{ action: "allow", src: [`node:${a.id}`], dst: [`node:${b.id}`], ports: ["tcp:443"], description: "web" }],
      tests: [{ src: `node:${a.id}`, dst: `node:${b.id}`, port: "tcp:443", expect: "allow" }],
    };
    const second = { rules: [{ action: "allow", src: ["*"], dst: ["*"], ports: ["*"] }], tests: [] };
    expect((await putPolicy(network.id, first, admin.token, 0)).status).toBe(200);
    expect((await putPolicy(network.id, second, admin.token, 1)).status).toBe(200);

    const viewer = await as("viewer");
    const page = await get(`/networks/${network.id}/access-policy/revisions?limit=1`, viewer.token);
    expect(page.body.items).toEqual([expect.objectContaining({ revision: 2, rules: 1, tests: 0, createdBy: admin.userId })]);
    const rest = await get(`/networks/${network.id}/access-policy/revisions?limit=1&cursor=${page.body.nextCursor}`, viewer.token);
    expect(rest.body).toEqual({ items: [expect.objectContaining({ revision: 1, rules: 1, tests: 1 })], nextCursor: null });

    const written = await get(`/networks/${network.id}/access-policy/revisions/1`, viewer.token);
    expect(written.body).toMatchObject({ revision: 1, createdBy: admin.userId, ...first });

    // Rollback: revision 1's document becomes revision 3; its tests ran again; the old revisions stay.
    const rolledBack = await putPolicy(network.id, { rules: written.body.rules, tests: written.body.tests }, admin.token, 2);
    expect(rolledBack.body).toMatchObject({ revision: 3, rules: first.rules, tests: first.tests });
    const all = await get(`/networks/${network.id}/access-policy/revisions`, admin.token);
    expect(all.body.items.map((item: { revision: number }) => item.revision)).toEqual([3, 2, 1]);
  });

  it("answers 404 for a revision that never was and for another tenant, 422 for a bad cursor or revision", async () => {
    const { admin, network } = await networkSetup();
    const stranger = await networkSetup();
    expect((await putPolicy(network.id, { rules: [], tests: [] }, admin.token, 0)).status).toBe(200);
    expectError(await get(`/networks/${network.id}/access-policy/revisions/2`, admin.token), 404, "not_found");
    const otherTenant = await stranger.as("owner");
    expectError(await get(`/networks/${network.id}/access-policy/revisions`, otherTenant.token), 404, "not_found");
    expectError(await get(`/networks/${network.id}/access-policy/revisions/1`, otherTenant.token), 404, "not_found");
    expectError(await get(`/networks/${network.id}/access-policy/revisions?cursor=abc`, admin.token), 422, "VALIDATION_ERROR", ["cursor"]);
    expectError(await get(`/networks/${network.id}/access-policy/revisions/0`, admin.token), 422, "VALIDATION_ERROR", ["revision"]);
  });
});
