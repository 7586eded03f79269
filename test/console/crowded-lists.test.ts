// Pages that take names from the first page of a list (50 networks, 200 groups) must still name what lies past it
// on a platform that large. The crowd these tests make would push other files' rows off those first pages, so
// this file runs in a workerd of its own (workers-alone, test/suites.ts).
import { describe, expect, it } from "vitest";
import { createGroup, createNetwork, gatewayNetwork, signInAdmin } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);

/** The error beside the form field `id`. */
const errorAt = (html: string, id: string) => {
  const error = new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];
  return error && textOf(error);
};

describe("console: names past the first page of a list", { timeout: 60_000 }, () => {
  it("names the network a name conflict is about when it is past the first page of the admin's networks", async () => {
    const admin = await signInAdmin();
    const crowded = await createGroup(admin);
    // The networks page lists 50; an admin sees every group's, so these put the one conflicted with on page 2.
    for (let batch = 0; batch < 5; batch++) await Promise.all(Array.from({ length: 11 }, () => createNetwork(admin, crowded.id)));
    const group = await createGroup(admin);
    const taken = await createNetwork(admin, group.id);
    const twice = await (await adminAgent()).post("/networks", { groupId: group.id, name: taken.name, cidr: "10.251.5.0/24" });
    expect(twice.status).toBe(409);
    expect(errorAt(twice.text, "name")).toBe(`The group already has a network named "${taken.name}"`);
  });

  it("names an event's group and network when they are past the first 200 an admin's lists hold", async () => {
    const admin = await signInAdmin();
    // 200 groups made first: the lists the page reads (200 each, oldest first) then no longer hold the event's group.
    for (let batch = 0; batch < 10; batch++) await Promise.all(Array.from({ length: 20 }, () => createGroup(admin)));
    const { group, network } = await gatewayNetwork(admin, 1);
    const page = await (await adminAgent()).get(`/audit?group=${group.id}`);
    expect(page.status).toBe(200);
    const rows = page.text.split("<tr>").slice(2).map(textOf);
    const created = rows.find((row) => row.includes("created network"));
    expect(created, rows.join("\n")).toContain(group.name);
    expect(created).toContain(network.name);
    for (const row of rows) expect(row).not.toContain(group.id);
  });
});
