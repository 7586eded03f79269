import { describe, expect, it } from "vitest";
import { byId } from "../../client/index.ts";
import { setSeen } from "../gateway-pools/support";
import { api } from "../helpers/api";
import { expectStatus, networkSetup, unique } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { listItems, postForms, textOf } from "./support/html";

const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);

describe("console routing policies page", () => {
  it("says what to do first: no policies, and no gateway node to route through", async () => {
    const { network } = await networkSetup();
    const page = await (await adminAgent()).get(`/networks/${network.id}/policies`);
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    expect(text).toContain("No routing policies.");
    expect(text).toContain("Add a gateway node on the Nodes page first");
    expect(text).toContain("No gateway pools.");
  });

  it("creates a pool and a 2-hop policy through the forms, and pictures the chain in order with each pool member's health", async () => {
    const { admin, network, hops } = await networkSetup({ gateways: 3 });
    const [gw1, gw2, gw3] = hops as [(typeof hops)[0], (typeof hops)[0], (typeof hops)[0]];
    await setSeen([gw1.id, gw2.id], 0); // gw3 never reported: it awaits its agent (the API says "stale report")
    const agent = await adminAgent();
    const base = `/networks/${network.id}`;

    const poolName = unique("edge");
    expect((await agent.post(`${base}/pools`, { name: poolName, member1: gw2.id, member2: gw3.id })).status).toBe(303);
    const pool = expectStatus(await api(admin.token).GET("/api/v1/networks/{id}/gateway-pools", byId(network.id)), 200).items[0];
    expect(pool?.members.map((member) => [member.nodeId, member.priority])).toEqual([
      [gw2.id, 1],
      [gw3.id, 2],
    ]);

    const name = unique("to-dc");
    const created = await agent.post(`${base}/policies`, {
      name,
      destinationCidr: "172.30.0.0/16",
      hop1: gw1.id,
      hop2: pool?.id ?? "",
      hop3: "",
    });
    expect(created.status).toBe(303);
    const policy = expectStatus(await api(admin.token).GET("/api/v1/networks/{id}/routing-policies", byId(network.id)), 200).items[0];
    expect(policy).toMatchObject({ name, type: "via_gateway", destinationCidr: "172.30.0.0/16", gatewayPath: [gw1.id, pool?.id] });

    const page = await agent.get(`${base}/policies`);
    expect(listItems(page.text, `Hops of ${name}, in order`)).toEqual([
      "source: the network's nodes that use this policy",
      "then gw1 (healthy, active), transit",
      `then pool ${poolName}: gw2 (healthy, active), gw3 (awaiting agent, standby), egress`,
      "then destination 172.30.0.0/16",
    ]);
    expect(page.text).toMatch(new RegExp(`<svg role="img" aria-labelledby="chain-${policy?.id}"`));
    expect(textOf(page.text)).toContain(`Chain of ${name}: source → gw1 → pool ${poolName} → 172.30.0.0/16`);
  });

  it("searches policies and pools by name, destination or gateway name (issue 29)", async () => {
    const { admin, network, hops } = await networkSetup({ gateways: 3 });
    const [gw1, gw2, gw3] = hops as [(typeof hops)[0], (typeof hops)[0], (typeof hops)[0]];
    const agent = await adminAgent();
    const base = `/networks/${network.id}`;
    expect((await agent.post(`${base}/pools`, { name: "edge-pool", member1: gw2.id, member2: gw3.id })).status).toBe(303);
    const create = (name: string, destinationCidr: string, hop1: string) =>
      api(admin.token).POST("/api/v1/networks/{id}/routing-policies", {
        ...byId(network.id),
        body: { name, type: "via_gateway", destinationCidr, gatewayPath: [hop1] },
      });
    expectStatus(await create("to-lab", "172.31.0.0/16", gw1.id), 201);
    const pool = expectStatus(await api(admin.token).GET("/api/v1/networks/{id}/gateway-pools", byId(network.id)), 200).items[0]!;
    expectStatus(await create("to-office", "10.99.0.0/16", pool.id), 201);
    const headings = async (q: string) => {
      const page = await agent.get(`${base}/policies?q=${encodeURIComponent(q)}`);
      expect(page.status).toBe(200);
      return [...page.text.matchAll(/<h2 id="policy-[^"]+">([^<]+)<\/h2>/g)].map((match) => match[1]);
    };
    expect(await headings("office")).toEqual(["to-office"]);
    expect(await headings("172.31")).toEqual(["to-lab"]);
    // A hop's name finds the policies through it: gw1 by its node name, the pool by its name.
    expect(await headings("gw1")).toEqual(["to-lab"]);
    expect(await headings("EDGE")).toEqual(["to-office"]);
    const none = textOf((await agent.get(`${base}/policies?q=nothing-here`)).text);
    expect(none).toContain("No routing policy matches “nothing-here”.");
    expect(none).toContain("Nothing matching “nothing-here” among 3 searched.");
    // Pools are searched by their members' names too; the pools table then lists only those.
    const byMember = textOf((await agent.get(`${base}/policies?q=gw3`)).text);
    expect(byMember).toContain("edge-pool gw2 1 active");
    expect(byMember).toContain("No routing policy matches “gw3”.");
    expect(textOf((await agent.get(`${base}/policies?q=lab`)).text)).toContain("No gateway pool matches “lab”.");
  });

  it("shows a chosen node's routing intent: its role on the path and its next hop", async () => {
    const { admin, network, hops } = await networkSetup({ gateways: 2 });
    const [gw1, gw2] = hops as [(typeof hops)[0], (typeof hops)[0]];
    const name = unique("via-two");
    expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/routing-policies", {
        ...byId(network.id),
        body: { name, type: "via_gateway", destinationCidr: "172.31.0.0/16", gatewayPath: [gw1.id, gw2.id] },
      }),
      201,
    );
    const agent = await adminAgent();
    const page = await agent.get(`/networks/${network.id}/policies?node=${gw1.id}`);
    const table = textOf(page.text.slice(page.text.indexOf("<caption>Routing intent of gw1")));
    expect(table).toContain(`${name} 172.31.0.0/16 transit none gw2`);
    const egress = textOf((await agent.get(`/networks/${network.id}/policies?node=${gw2.id}`)).text);
    expect(egress).toContain(`${name} 172.31.0.0/16 egress gw1 none`);
  });

  it("edits a policy (its form starts from the policy), deletes it, and re-renders a refused form with the values", async () => {
    const { admin, network, hops } = await networkSetup({ gateways: 2 });
    const [gw1, gw2] = hops as [(typeof hops)[0], (typeof hops)[0]];
    const policy = expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/routing-policies", {
        ...byId(network.id),
        body: { name: unique("p"), type: "via_gateway", destinationCidr: "172.29.0.0/16", gatewayPath: [gw1.id] },
      }),
      201,
    );
    const agent = await adminAgent();
    const base = `/networks/${network.id}/policies/${policy.id}`;
    const form = await agent.get(`${base}/edit`);
    expect(form.text).toContain('value="172.29.0.0/16"');
    expect(form.text).toMatch(
      new RegExp(`<select id="hop1" name="hop1" required=""><option value="">[^<]*</option><option value="${gw1.id}" selected=""`),
    );

    const refused = await agent.post(`${base}/edit`, { name: policy.name, destinationCidr: "172.29.0.1/16", hop1: gw1.id });
    expect([400, 422]).toContain(refused.status);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain('value="172.29.0.1/16"');

    expect(
      (await agent.post(`${base}/edit`, { name: "renamed", destinationCidr: "172.28.0.0/16", hop1: gw2.id, hop2: gw1.id })).status,
    ).toBe(303);
    expect(expectStatus(await api(admin.token).GET("/api/v1/routing-policies/{id}", byId(policy.id)), 200)).toMatchObject({
      name: "renamed",
      destinationCidr: "172.28.0.0/16",
      gatewayPath: [gw2.id, gw1.id],
    });
    expect((await agent.post(`${base}/delete`, {})).status).toBe(303);
    expect((await api(admin.token).GET("/api/v1/routing-policies/{id}", byId(policy.id))).response.status).toBe(404);
  });

  it("drains and undrains a pool member", async () => {
    const { admin, network, hops } = await networkSetup({ gateways: 2 });
    const [gw1, gw2] = hops as [(typeof hops)[0], (typeof hops)[0]];
    const pool = expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/gateway-pools", {
        ...byId(network.id),
        body: {
          name: unique("pool"),
          members: [
            { nodeId: gw1.id, priority: 1 },
            { nodeId: gw2.id, priority: 2 },
          ],
        },
      }),
      201,
    );
    const agent = await adminAgent();
    const member = `/networks/${network.id}/pools/${pool.id}/members/${gw2.id}`;
    expect((await agent.post(`${member}/drain`, {})).status).toBe(303);
    const drained = expectStatus(await api(admin.token).GET("/api/v1/gateway-pools/{id}", byId(pool.id)), 200);
    expect(drained.members.find((entry) => entry.nodeId === gw2.id)?.drained).toBe(true);
    expect(textOf((await agent.get(`/networks/${network.id}/policies`)).text)).toContain("Undrain gw2");
    expect((await agent.post(`${member}/undrain`, {})).status).toBe(303);
    const back = expectStatus(await api(admin.token).GET("/api/v1/gateway-pools/{id}", byId(pool.id)), 200);
    expect(back.members.find((entry) => entry.nodeId === gw2.id)?.drained).toBe(false);
  });

  it("shows a viewer the chains without forms, and refuses a viewer's policy with the API's message", async () => {
    const { admin, network, hops, as } = await networkSetup({ gateways: 1 });
    const gw1 = hops[0]!;
    const name = unique("seen");
    expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/routing-policies", {
        ...byId(network.id),
        body: { name, type: "via_gateway", destinationCidr: "172.27.0.0/16", gatewayPath: [gw1.id] },
      }),
      201,
    );
    const viewer = await as("viewer");
    const agent = await signedInAgent(viewer.email, "a long enough password");
    const page = await agent.get(`/networks/${network.id}/policies`);
    expect(listItems(page.text, `Hops of ${name}, in order`)).toHaveLength(3);
    expect(postForms(page.text)).toEqual([]);
    const fields = { name: unique("nope"), destinationCidr: "172.26.0.0/16", hop1: gw1.id };
    const refused = await agent.post(`/networks/${network.id}/policies`, fields);
    const apiSays = await api(viewer.token).POST("/api/v1/networks/{id}/routing-policies", {
      ...byId(network.id),
      body: { name: fields.name, type: "via_gateway", destinationCidr: fields.destinationCidr, gatewayPath: [gw1.id] },
    });
    expect(refused.status).toBe(403);
    expect(textOf(refused.text)).toContain(apiSays.error?.error.message ?? "(no message)");
    const policies = expectStatus(await api(admin.token).GET("/api/v1/networks/{id}/routing-policies", byId(network.id)), 200).items;
    expect(policies.map((policy) => policy.name)).toEqual([name]);
  });
});
