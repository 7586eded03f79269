import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createNetwork, createUser, expectStatus, networkSetup, signInAdmin } from "../helpers/factories";
import { signedInAgent } from "./support/console-agent";
import { inHtml, messageOf } from "./support/api-message";

const PASSWORD = "a long enough password";

describe("console audit log", { timeout: 30_000 }, () => {
  it("shows the events of the groups the user manages, newest first, and filters by network", async () => {
    const { owner, group, network } = await networkSetup({ owner: "user" });
    const second = await createNetwork(owner, group.id);
    const agent = await signedInAgent(owner.email, PASSWORD);

    const all = expectStatus(await api(owner.token).GET("/api/v1/audit", { params: { query: { order: "desc" } } }), 200).items;
    expect(all.length).toBeGreaterThanOrEqual(3); // the group, two networks
    const page = await agent.get("/audit");
    expect(page.status).toBe(200);
    const positions = all.map((event) => page.text.indexOf(event.requestId));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(page.text).toContain("<code>POST /networks</code>");

    const filtered = await agent.get(`/audit?network=${network.id}`);
    const ofNetwork = expectStatus(
      await api(owner.token).GET("/api/v1/audit", { params: { query: { networkId: network.id } } }),
      200,
    ).items;
    expect(ofNetwork.length).toBeGreaterThan(0);
    for (const event of ofNetwork) expect(filtered.text).toContain(event.requestId);
    const ofSecond = all.find((event) => event.networkId === second.id);
    expect(filtered.text).not.toContain(ofSecond?.requestId);
  });

  it("says so when there is nothing to show", async () => {
    const user = await createUser(await signInAdmin());
    const page = await (await signedInAgent(user.email, PASSWORD)).get("/audit");
    expect(page.status).toBe(200);
    expect(page.text).toContain("No audit events");
  });

  it("refuses a member the log of a group they only read, with the API's message", async () => {
    const { group, as } = await networkSetup({ owner: "user" });
    const member = await as("member");
    const direct = await api(member.token).GET("/api/v1/audit", { params: { query: { groupId: group.id } } });
    expect(direct.response.status).toBe(403);
    const page = await (await signedInAgent(member.email, PASSWORD)).get(`/audit?group=${group.id}`);
    expect(page.status).toBe(403);
    expect(page.text).toContain(inHtml(messageOf(direct)));
  });
});
