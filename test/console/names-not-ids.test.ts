// No page shows an id where a name exists (issue 47): the audit log names routing policies and inventory gateways
// and says what each change did in words; a group's members are people, not user ids.
import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { addMember, createUser, expectStatus, gatewayNetwork, signInAdmin } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { actionWords } from "../../src/console/routes/audit-names";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

/** Ids of the kinds a person has a name for (lib/ids.ts): what a page must not show where it can name the thing. */
const NAMEABLE = /\b(usr|grp|net|rp|gpl|node|dev|reg|gw|agt|ek)_[0-9a-z]{10,}/i;

describe("console: names, not ids", { timeout: 30_000 }, () => {
  it("the audit log names the policy and the gateway a change made, and says what it did", async () => {
    const admin = await signInAdmin();
    const { group, network, hops } = await gatewayNetwork(admin, 2);
    const policy = expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/routing-policies", {
        params: { path: { id: network.id } },
        body: { name: "to-lab", type: "via_gateway", destinationCidr: "192.168.77.0/24", gatewayPath: hops.map((hop) => hop.id) },
      }),
      201,
    );
    const page = await (await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password)).get(`/audit?group=${group.id}`);
    expect(page.status).toBe(200);
    const rows = page.text.split("<tr>").slice(2).map(textOf);
    const created = rows.find((row) => row.includes("created routing policy"));
    expect(created, rows.join("\n")).toContain("to-lab");
    expect(created).not.toContain(policy.id);
    const gatewayRows = (await (await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password)).get("/audit")).text
      .split("<tr>")
      .map(textOf)
      .filter((row) => row.includes("created gateway"));
    expect(gatewayRows.length).toBeGreaterThan(0);
    for (const row of gatewayRows) expect(row, "each inventory gateway by its name").not.toMatch(/\bgw_[0-9a-z]{10,}/i);
    // Every id left on the page is an event's request id or a thing no longer listed.
    for (const row of rows.filter((line) => !line.includes("no longer listed"))) expect(row).not.toMatch(NAMEABLE);
  });

  it("the group page lists members by name and e-mail, without their user ids", async () => {
    const admin = await signInAdmin();
    const { group } = await gatewayNetwork(admin, 0);
    const member = await createUser(admin);
    await addMember(group.id, member, "member");
    const page = await (await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password)).get(`/groups/${group.id}`);
    expect(page.text).toContain(member.email);
    expect(textOf(page.text)).not.toMatch(/\busr_/);
    expect(textOf(page.text)).not.toContain(member.userId);
  });

  it("words the routes of the audit log", () => {
    expect(actionWords("POST", "/networks/:id/routing-policies")).toBe("created routing policy");
    expect(actionWords("PUT", "/routing-policies/:id")).toBe("changed routing policy");
    expect(actionWords("DELETE", "/dns/records/:id")).toBe("deleted record");
    expect(actionWords("POST", "/gateways")).toBe("created gateway");
    expect(actionWords("POST", "/devices/:id/revoke")).toBe("revoke (device)");
    expect(actionWords("PUT", "/networks/:id/access-policy")).toBe("changed access policy (network)");
  });
});
