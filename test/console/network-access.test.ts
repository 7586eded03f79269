// The console's access page (issue 26) in workerd: the policy's rules and tests with their results, the editor's
// preview (a diff, failing tests refused with their fields) and Apply with If-Match (412 worded), the mode
// switch, "who can reach this node and why", tags on the nodes page, and a viewer offered no form.
import { describe, expect, it } from "vitest";
import { byId } from "../../client/index.ts";
import { api, call } from "../helpers/api";
import { createNode, expectStatus, networkSetup } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { postForms, rowOf, textOf } from "./support/html";

const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);

async function threeNodes() {
  const setup = await networkSetup();
  const web = await createNode(setup.admin, setup.network.id, { name: "web-1" });
  const laptop = await createNode(setup.admin, setup.network.id, { name: "laptop-1" });
  const db = await createNode(setup.admin, setup.network.id, { name: "db-1" });
  return { ...setup, web, laptop, db };
}

const document = (laptop: string, web: string, expect: "allow" | "deny") =>
  JSON.stringify({
    rules: [{ action: "allow", src: [`node:${laptop}`], dst: [`node:${web}`], ports: ["tcp:443"], description: "web access" }],
    tests: [{ src: `node:${laptop}`, dst: `node:${web}`, port: "tcp:22", expect }],
  });

describe("console access page", () => {
  it("previews a document as a diff, refuses failing tests with their fields, applies with If-Match and shows the results", async () => {
    const { admin, network, web, laptop } = await threeNodes();
    const agent = await adminAgent();
    const base = `/networks/${network.id}/access`;
    const empty = await agent.get(base);
    expect(empty.status).toBe(200);
    expect(textOf(empty.text)).toContain("Access mode: open");
    expect(textOf(empty.text)).toContain("Rules (revision 0)");
    expect(empty.text).toContain(`href="${base}" aria-current="page"`);

    const notJson = await agent.post(`${base}/preview`, { document: "{ rules: ", revision: "0" });
    expect(notJson.status).toBe(400);
    expect(notJson.text).toContain('aria-invalid="true"');
    expect(textOf(notJson.text)).toContain("The policy document is not JSON");

    const malformed = await agent.post(`${base}/preview`, {
      document: JSON.stringify({ rules: [{ action: "allow", src: ["tag:Web"], dst: ["*"], ports: ["tcp"] }] }),
      revision: "0",
    });
    expect(malformed.status).toBe(422);
    expect(textOf(malformed.text)).toContain("Rule 1, src 1:");

    const failing = await agent.post(`${base}/preview`, { document: document(laptop.id, web.id, "allow"), revision: "0" });
    expect(failing.status).toBe(200);
    expect(textOf(failing.text)).toContain("1 test would fail with this document.");
    expect(textOf(failing.text)).toContain("Test 1: Expected allow for");
    expect(postForms(failing.text)).not.toContain(`${base}/apply`);
    // Apply posted by hand anyway: the API refuses the failing test and nothing is written.
    const forced = await agent.post(`${base}/apply`, { document: document(laptop.id, web.id, "allow"), revision: "0" });
    expect(forced.status).toBe(400);
    expect(textOf(forced.text)).toContain("Test 1: Expected allow for");

    const good = await agent.post(`${base}/preview`, { document: document(laptop.id, web.id, "deny"), revision: "0" });
    // db-1 is named by no rule: everyone loses it as a peer, and it loses everyone.
    expect(textOf(good.text)).toContain("3 nodes would change peers");
    expect(rowOf(good.text, "laptop-1")).toBe("laptop-1 − db-1");
    expect(rowOf(good.text, "db-1")).toMatch(/^db-1 − (web-1, laptop-1|laptop-1, web-1)$/);
    expect(postForms(good.text)).toContain(`${base}/apply`);
    const applied = await agent.post(`${base}/apply`, { document: document(laptop.id, web.id, "deny"), revision: "0" });
    expect(applied.status).toBe(303);
    expect(applied.location).toBe(`${base}?applied=1`);
    const page = await agent.get(`${base}?applied=1`);
    expect(textOf(page.text)).toContain("Revision 1 of the access policy is in force.");
    expect(rowOf(page.text, "1")).toBe("1 allow node:laptop-1 node:web-1 tcp:443 never web access");
    expect(textOf(page.text)).toMatch(/1 node:laptop-1 node:web-1 tcp:22 deny passes/);

    // A second Apply from the same preview (revision 0) after revision 1 was written: 412, in words, nothing written.
    const stale = await agent.post(`${base}/apply`, { document: document(laptop.id, web.id, "deny"), revision: "0" });
    expect(stale.status).toBe(412);
    expect(textOf(stale.text)).toContain("The access policy changed since you previewed it");
    expect(expectStatus(await api(admin.token).GET("/api/v1/networks/{id}/access-policy", byId(network.id)), 200).revision).toBe(1);
  });

  it("switches the mode, says who can reach a node and by which rule, and edits tags on the nodes page", async () => {
    const { admin, network, web, laptop } = await threeNodes();
    const agent = await adminAgent();
    const base = `/networks/${network.id}/access`;
    // Tests that held when written but fail against the nodes as they are now: the switch is refused, in words.
    const tag = async (nodeId: string, tags: string[]) =>
      expectStatus(await api(admin.token).PATCH("/api/v1/nodes/{id}", { ...byId(nodeId), body: { tags } }), 200);
    await tag(web.id, ["tag:web"]);
    const tagged = {
      rules: [{ action: "allow", src: ["*"], dst: ["tag:web"], ports: ["tcp:443"] }],
      tests: [{ src: `node:${laptop.id}`, dst: "tag:web", port: "tcp:443", expect: "allow" }],
    };
    expect((await call("PUT", `/networks/${network.id}/access-policy`, { body: tagged, token: admin.token })).status).toBe(200);
    await tag(web.id, []);
    const switchRefused = await agent.post(`${base}/mode`, { accessMode: "policy" });
    expect(switchRefused.status).toBe(400);
    expect(textOf(switchRefused.text)).toMatch(/Test 1, dst: "tag:web": Selects no node/);
    expect(textOf(switchRefused.text)).toContain("Access mode: open");
    expect(
      (
        await call("PUT", `/networks/${network.id}/access-policy`, {
          body: JSON.parse(document(laptop.id, web.id, "deny")),
          token: admin.token,
        })
      ).status,
    ).toBe(200);
    expect((await agent.post(`${base}/mode`, { accessMode: "policy" })).status).toBe(303);
    expect(expectStatus(await api(admin.token).GET("/api/v1/networks/{id}", byId(network.id)), 200).accessMode).toBe("policy");

    const reach = await agent.get(`${base}?node=${web.id}`);
    expect(rowOf(reach.text, "laptop-1")).toBe(
      "laptop-1 tcp:443 Allowed by Rule 1: allow node:laptop-1 → node:web-1 on tcp:443 (web access)",
    );
    expect(textOf((await agent.get(`${base}?node=${laptop.id}`)).text)).toContain("No node may reach laptop-1");

    const nodes = `/networks/${network.id}/nodes`;
    expect((await agent.post(`${nodes}/${web.id}/tags`, { tags: "web tag:prod" })).status).toBe(303);
    expect(expectStatus(await api(admin.token).GET("/api/v1/nodes/{id}", byId(web.id)), 200).tags).toEqual(["tag:web", "tag:prod"]);
    const refused = await agent.post(`${nodes}/${web.id}/tags`, { tags: "Web!" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(`id="tags-${web.id}-error"`);
  });

  it("offers a viewer the page without any form that changes the policy, mode or tags", async () => {
    const { network, as } = await threeNodes();
    const viewer = await as("viewer");
    const agent = await signedInAgent(viewer.email, "a long enough password");
    const page = await agent.get(`/networks/${network.id}/access`);
    expect(page.status).toBe(200);
    expect(postForms(page.text)).toEqual([]);
    expect(postForms((await agent.get(`/networks/${network.id}/nodes`)).text)).toEqual([]);
  });
});
