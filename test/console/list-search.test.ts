// Search by name on the console's lists (src/console/list-search.ts): the API filters lists by parent, not
// by name, so the console reads the API's pages and keeps the matches, bounded, and "Next page" goes on
// from the API's cursor where it stopped. Driven through the real Worker's list routes and cursors.
import { describe, expect, it } from "vitest";
import { MATCHES_PER_PAGE, SCAN_PAGES, searchList } from "../../src/console/list-search";
import { api } from "../helpers/api";
import { createGroup, createNode, createUser, expectStatus, networkSetup, signInAdmin, unique } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

const PASSWORD = "a long enough password";

/** The names in the first table of a page (the list): each row's first cell, in order. */
const namesIn = (html: string) =>
  [...(/<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? "").matchAll(/<tr>\s*<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((row) =>
    textOf(row[1] ?? ""),
  );

describe("searching a list the API pages", () => {
  it("reads page after page for matches, stops after SCAN_PAGES, and goes on from the API's cursor", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const token = unique("blue");
    // 2 pages' worth more than one search reads at 2 a page: the search must hand back a cursor.
    const total = SCAN_PAGES * 2 + 4;
    const made: string[] = [];
    for (let i = 0; i < total; i++) made.push((await createGroup(user, i % 3 === 0 ? `${token}-${i}` : unique("grey"))).name);
    const read = async (cursor: string | undefined) =>
      expectStatus(await api(user.token).GET("/api/v1/groups", { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } }), 200);

    const first = await searchList(read, (group) => [group.name], token.toUpperCase(), undefined);
    expect(first.searched).toBe(SCAN_PAGES * 2);
    expect(first.nextCursor).not.toBeNull();
    const second = await searchList(read, (group) => [group.name], token, first.nextCursor ?? undefined);
    expect(second.nextCursor).toBeNull();
    expect(first.searched + second.searched).toBe(total);
    // Every match once, in creation order, none skipped at the seam.
    expect([...first.items, ...second.items].map((group) => group.name)).toEqual(made.filter((name) => name.startsWith(token)));

    // Without words: the API's own page, as before.
    const plain = await searchList(read, (group) => [group.name], "  ", undefined);
    expect(plain.items).toHaveLength(2);
    expect(MATCHES_PER_PAGE).toBeGreaterThan(2);
  });
});

describe("console lists: search by name", () => {
  it("groups: only the matches, the words kept in the box, a way back to all", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const token = unique("teal");
    await createGroup(owner, `${token}-one`);
    await createGroup(owner, unique("other"));
    const agent = await signedInAgent(owner.email, PASSWORD);

    const all = await agent.get("/groups");
    expect(namesIn(all.text)).toHaveLength(2);
    const found = await agent.get(`/groups?q=${encodeURIComponent(token.toUpperCase())}`);
    expect(found.status).toBe(200);
    expect(namesIn(found.text)).toEqual([`${token}-one`]);
    expect(found.text).toContain('<search><form method="get" action="/groups" class="search">');
    expect(found.text).toContain(`<input id="q" name="q" type="search" value="${token}"`); // as searched: case does not matter
    expect(textOf(found.text)).toContain(`1 item matching “${token}” among 2 searched.`);
    expect(found.text).toContain('<a href="/groups">Show all</a>');

    const none = await agent.get("/groups?q=no-such-group");
    expect(namesIn(none.text)).toEqual([]);
    expect(textOf(none.text)).toContain("Nothing matching “no-such-group” among 2 searched.");
    expect(textOf(none.text)).not.toContain("You are not in any group yet");
  });

  it("a network's nodes and DNS records by name (and address or value); networks, devices, gateways", async () => {
    const { admin, network } = await networkSetup();
    await createNode(admin, network.id, { name: "db-1" });
    await createNode(admin, network.id, { name: "web-1" });
    for (const [name, value] of [
      ["api", "10.9.0.1"],
      ["www", "10.9.0.2"],
    ] as const) {
      const made = await api(admin.token).POST("/api/v1/networks/{id}/dns/records", {
        params: { path: { id: network.id } },
        body: { name, type: "A", value },
      });
      expect(made.response.status).toBe(201);
    }
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    expect(namesIn((await agent.get(`/networks/${network.id}/nodes?q=web`)).text)).toEqual(["web-1"]);
    expect(namesIn((await agent.get(`/networks/${network.id}/dns?q=10.9.0.2`)).text)).toEqual(["www"]);
    const networks = await agent.get(`/networks?q=${encodeURIComponent(network.name)}`);
    expect(namesIn(networks.text)).toEqual([network.name]);
    const devices = await agent.get("/devices?q=no-such-device");
    expect(textOf(devices.text)).toContain("Nothing matching “no-such-device”");
    const inventory = await agent.get(`/admin/inventory?q=no-such-gateway&back=${encodeURIComponent(`/networks/${network.id}/nodes`)}`);
    expect(textOf(inventory.text)).toContain("Nothing matching “no-such-gateway”");
    // The search keeps where the admin came from.
    expect(inventory.text).toContain(`<input type="hidden" name="back" value="/networks/${network.id}/nodes"/>`);
  });
});
