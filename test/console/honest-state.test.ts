import { describe, expect, it } from "vitest";
import { asText, byId } from "../../client/index.ts";
import { api } from "../helpers/api";
import { assignGateway, createGateway, createNode, expectStatus, networkSetup } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { env } from "cloudflare:workers";
import { unwrap } from "../../src/lib/write-result";
import { networkWriter } from "../../src/objects/network/client";
import { chain, setSeen } from "../gateway-pools/support";
import { signedInAgent } from "./support/console-agent";
import { listItems, textOf } from "./support/html";

const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);

/** A gateway node with no key: its inventory gateway has no agent yet, so it never reported. */
async function awaitingGatewayNode(
  admin: Awaited<ReturnType<typeof networkSetup>>["admin"],
  groupId: string,
  networkId: string,
  name: string,
) {
  const inventory = await createGateway(admin);
  await assignGateway(admin, groupId, { gatewayId: inventory.id });
  return expectStatus(
    await api(admin.token).POST("/api/v1/nodes", { body: { networkId, name, roles: ["gateway"], gatewayId: inventory.id } }),
    201,
  );
}

describe("console state a person can trust", () => {
  it("shows a gateway that never reported as awaiting its agent, not unhealthy, in the chain and the pools", async () => {
    const { admin, group, network } = await networkSetup();
    const first = await awaitingGatewayNode(admin, group.id, network.id, "gw-new-a");
    const second = await awaitingGatewayNode(admin, group.id, network.id, "gw-new-b");
    const pool = expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/gateway-pools", {
        ...byId(network.id),
        body: {
          name: "edge",
          members: [
            { nodeId: first.id, priority: 1 },
            { nodeId: second.id, priority: 2 },
          ],
        },
      }),
      201,
    );
    expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/routing-policies", {
        ...byId(network.id),
        body: { name: "via-new", type: "via_gateway", destinationCidr: "172.25.0.0/16", gatewayPath: [pool.id] },
      }),
      201,
    );
    const page = await (await adminAgent()).get(`/networks/${network.id}/policies`);
    const hops = listItems(page.text, "Hops of via-new, in order");
    expect(hops[1]).toContain("gw-new-a (awaiting agent, active)");
    expect(page.text).not.toContain("stale report");
    expect(page.text).not.toContain("✕ unhealthy");
    expect(textOf(page.text)).toContain("edge gw-new-b 2 standby, awaiting agent");
  });

  it("shows a member the pool failed away from as held down, healthy again but not chosen back yet", async () => {
    const { network, gw2, gw3 } = await chain();
    await setSeen([gw2.id], 60);
    const { failovers } = await unwrap(networkWriter(env, network.id).evaluatePools(network.id));
    expect(failovers).toMatchObject([{ from: gw2.id, to: gw3.id }]);
    await setSeen([gw2.id], 0);
    const page = await (await adminAgent()).get(`/networks/${network.id}/policies`);
    expect(textOf(page.text)).toMatch(/standby, healthy, held down until \d\d:\d\d:\d\d UTC/);
  });

  it("says on the nodes page and in the downloaded file which gateway nodes a config leaves out, and why", async () => {
    const { admin, group, network } = await networkSetup();
    await awaitingGatewayNode(admin, group.id, network.id, "gw-keyless");
    const laptop = await createNode(admin, network.id, { name: "laptop-early" });
    const agent = await adminAgent();
    const page = textOf((await agent.get(`/networks/${network.id}/nodes`)).text);
    expect(page).toContain("Awaiting their gateway agent: gw-keyless.");

    const download = await agent.get(`/networks/${network.id}/nodes/${laptop.id}/config`);
    const fromApi = await api(admin.token).GET("/api/v1/nodes/{id}/config", { ...byId(laptop.id), ...asText });
    const [note, ...rest] = download.text.split("\n");
    expect(note).toBe("# Not in this file yet: gw-keyless (awaiting their gateway agent's key). Download again once it runs.");
    expect(rest.join("\n")).toBe(fromApi.data);
  });
});
