// The network map (/networks/:id/map, src/console/pages/network-map*.tsx): chains and pools, gateways, relays,
// devices as tiles or tag groups, relayed pairs through their relay, a search, and the viewer's map.
import { describe, expect, it } from "vitest";
import { byId } from "../../client/index.ts";
import { OPEN_LIMIT } from "../../src/console/pages/network-map-model";
import { createPolicy, createPool, setSeen } from "../gateway-pools/support";
import { api, post } from "../helpers/api";
import { createGateway, createNode, expectStatus, fakePublicKey, networkSetup, type Session } from "../helpers/factories";
import { checkAt, natNetwork, strandPair } from "../nat/nat-lab";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

const PASSWORD = "a long enough password";
const TIMEOUT_MS = 20_000; // NAT_DIRECT_TIMEOUT_SECONDS

/** The shapes of one kind the map drew (data-tile, data-group, data-member, data-gateway, data-pair), by their value. */
const drawn = (html: string, kind: string) => [...html.matchAll(new RegExp(`data-${kind}="([^"]*)"`, "g"))].map((match) => match[1]);
/** The SVG element drawn for one shape: from its data attribute to the end of its group. */
const shape = (html: string, kind: string, value: string) => {
  const start = html.indexOf(`data-${kind}="${value}"`);
  if (start < 0) throw new Error(`no ${kind} ${value}`);
  return html.slice(html.lastIndexOf("<g", start), html.indexOf("</g>", start));
};
/** The items of the list labelled `label`, as text. */
const itemsOf = (html: string, label: string) => {
  const start = html.indexOf(`aria-label="${label}"`);
  if (start < 0) return [];
  return [...html.slice(start, html.indexOf("</ul>", start)).matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) =>
    textOf(match[1] ?? "").replace(/ ([:,.])/g, "$1"),
  );
};

async function gatewayNode(admin: Session, networkId: string, name: string, octet: number) {
  const inventory = await createGateway(admin);
  return createNode(admin, networkId, { name, gatewayId: inventory.id, endpoint: `198.51.100.${octet}:51820` });
}

/** A 2-hop chain (gw-1, then a pool of gw-2 and gw-3), a gateway awaiting its agent, and laptop-a and laptop-b on relay-1. */
async function mappedNetwork() {
  const lab = await natNetwork();
  const { admin, network } = lab;
  const gw1 = await gatewayNode(admin, network.id, "gw-1", 11);
  const gw2 = await gatewayNode(admin, network.id, "gw-2", 12);
  const gw3 = await gatewayNode(admin, network.id, "gw-3", 13);
  await setSeen([gw1.id, gw2.id], 0); // gw-3 never reported: it awaits its agent
  const pool = await createPool(admin.token, network.id, [
    { nodeId: gw2.id, priority: 1 },
    { nodeId: gw3.id, priority: 2 },
  ]);
  const poolName = expectStatus(await api(admin.token).GET("/api/v1/gateway-pools/{id}", byId(pool.id)), 200).name;
  const policy = await createPolicy(admin.token, network.id, [gw1.id, pool.id], "172.30.0.0/16");
  const inventory = await createGateway(admin);
  const keyless = await post("/nodes", { networkId: network.id, name: "gw-new", roles: ["gateway"], gatewayId: inventory.id }, admin.token);
  expect(keyless.status, keyless.text).toBe(201);

  // The laptops find no direct path (docs/nat.md): live sessions with the relay, none with each other.
  await strandPair(lab);
  const moved = await checkAt(network.id, Date.now() + TIMEOUT_MS + 1000);
  expect(moved.moves).toHaveLength(1);
  return { ...lab, gw1, gw2, gw3, poolName, policy, keyless: keyless.body as { id: string } };
}

describe("console network map", () => {
  it("draws a 2-hop chain with its pool, the relay, the devices and their relayed pair, with a legend and the words", async () => {
    const { network, relay, a, b, gw1, gw2, gw3, poolName, keyless } = await mappedNetwork();
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const page = await agent.get(`/networks/${network.id}/map`);
    expect(page.status, page.text.slice(0, 500)).toBe(200);
    expect(page.text).toContain('aria-current="page">Map');
    const html = page.text;

    // The picture: an image with its title and a one-sentence description.
    expect(html).toContain('<svg role="img" aria-labelledby="map-title map-desc"');
    expect(html).toContain(`<title id="map-title">Map of ${network.name}</title>`);
    expect(textOf(/<desc id="map-desc">([\s\S]*?)<\/desc>/.exec(html)?.[1] ?? "")).toBe(
      "1 chain; 5 gateways (2 healthy, 2 awaiting agent, 1 online); 2 devices (2 online); 1 relayed pair",
    );
    // The chain, hops as columns: gw-1, then the pool with gw-2 active and gw-3 a dimmed standby awaiting its agent.
    expect(drawn(html, "member")).toEqual([gw1.id, gw2.id, gw3.id]);
    expect(shape(html, "member", gw2.id)).toContain('opacity="1"');
    expect(textOf(shape(html, "member", gw2.id))).toContain("gw-2: healthy, active ▶ gw-2");
    expect(shape(html, "member", gw3.id)).toContain('opacity="0.55"');
    expect(textOf(shape(html, "member", gw3.id))).toContain("gw-3: awaiting agent, standby");
    expect(textOf(html)).toContain(`pool ${poolName}`);
    // The relay and the gateway awaiting its agent, outside the chain: "awaiting agent", not unhealthy.
    expect(drawn(html, "gateway")).toEqual([relay.node.id, keyless.id]);
    expect(textOf(shape(html, "gateway", relay.node.id))).toContain("relay-1 (R)");
    expect(textOf(shape(html, "gateway", keyless.id))).toContain("gw-new: awaiting agent");
    expect(textOf(shape(html, "gateway", keyless.id))).not.toContain("unhealthy");
    // The devices as tiles, and their pair as one line through the relay.
    expect(drawn(html, "tile").sort()).toEqual([a.nodeId, b.nodeId].sort());
    const pairs = drawn(html, "pair");
    expect(pairs).toHaveLength(1);
    expect(pairs[0]?.split(" ").sort()).toEqual(["laptop-a", "laptop-b", "relay-1"]);

    // The legend, and the map in words.
    expect(itemsOf(html, "Legend")).toEqual([
      "online or healthy",
      "offline, unhealthy or failing",
      "awaiting agent, never seen, drained or not shown",
      "▶ active member (carries the traffic); dimmed: standby",
      "(R) relay",
      "relayed pair, through its relay",
      "yellow, outlined: matches the search",
    ]);
    expect(itemsOf(html, "Chains")).toEqual([
      expect.stringMatching(
        new RegExp(
          `\\(172\\.30\\.0\\.0/16\\): gw-1 \\(healthy\\), then pool ${poolName}: gw-2 \\(healthy, active\\), gw-3 \\(awaiting agent, standby\\)$`,
        ),
      ),
    ]);
    expect(itemsOf(html, "Gateways not healthy")).toEqual(["gw-3: awaiting agent", "gw-new: awaiting agent"]);
    expect(itemsOf(html, "Relayed pairs")).toEqual([expect.stringMatching(/^laptop-[ab] and laptop-[ab] through relay relay-1 \(since /)]);
    expect(html).toContain(`href="/networks/${network.id}/nodes/${relay.node.id}">relay-1</a>`);
  });

  it("highlights a search's matches on the map and lists them under it", async () => {
    const { network, a, b } = await mappedNetwork();
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const html = (await agent.get(`/networks/${network.id}/map?q=LAPTOP-A`)).text;
    expect(shape(html, "tile", a.nodeId)).toContain('stroke-width="3"');
    expect(textOf(shape(html, "tile", a.nodeId))).toContain("laptop-a: online (matches the search)");
    expect(shape(html, "tile", b.nodeId)).toContain('stroke-width="1"');
    expect(itemsOf(html, "Matching nodes")).toEqual(["laptop-a: online (untagged)"]);
    expect(html).toContain('value="LAPTOP-A"');
  });

  it("gives a viewer the map without relayed pairs, and says why", async () => {
    const { network, as, relay } = await mappedNetwork();
    const viewer = await as("viewer");
    const agent = await signedInAgent(viewer.email, PASSWORD);
    const page = await agent.get(`/networks/${network.id}/map`);
    expect(page.status).toBe(200);
    expect(drawn(page.text, "pair")).toEqual([]);
    expect(drawn(page.text, "gateway")).toContain(relay.node.id);
    // The laptops are the admin's devices: the viewer sees them, not their health.
    expect(drawn(page.text, "tile")).toHaveLength(2);
    expect(textOf(page.text)).toContain("2 devices: 2 not shown.");
    expect(textOf(page.text)).toContain("Relayed pairs are shown to the group's owners and admins: they name every member's devices.");
    expect(textOf(/<desc id="map-desc">([\s\S]*?)<\/desc>/.exec(page.text)?.[1] ?? "")).toContain("relayed pairs not shown");
  });
});

describe("console network map, empty", () => {
  it("says what to do first instead of an empty picture", async () => {
    const { network } = await networkSetup();
    const page = await (await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password)).get(`/networks/${network.id}/map`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<svg role="img"');
    expect(textOf(page.text)).toContain("Nothing to draw yet: add gateway nodes and devices on the Nodes page, then a routing policy.");
    expect(textOf(page.text)).toContain("No routing policy yet: add one");
  });
});

describe("console network map at scale", () => {
  it("draws 300 devices as tag groups, not 300 shapes, in a page of bounded size; a search opens the group holding the match", async () => {
    const { admin, network } = await networkSetup({ cidr: `10.${200 + Math.floor(Math.random() * 50)}.0.0/22` });
    const tagOf = (i: number) => (i < 200 ? ["tag:web"] : i < 290 ? ["tag:db"] : []);
    const made: { id: string }[] = [];
    for (let start = 0; start < 300; start += 25) {
      const batch = Array.from({ length: 25 }, (_, k) => start + k);
      made.push(
        ...(await Promise.all(
          batch.map(async (i) => {
            const created = await post(
              "/nodes",
              { networkId: network.id, name: i === 250 ? "needle-db" : `dev-${i}`, publicKey: fakePublicKey(), tags: tagOf(i) },
              admin.token,
            );
            expect(created.status, created.text).toBe(201);
            return created.body as { id: string };
          }),
        )),
      );
    }
    await setSeen(
      made.slice(0, 150).map((node) => node.id),
      0,
    );
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);

    const page = await agent.get(`/networks/${network.id}/map`);
    expect(page.status).toBe(200);
    expect(drawn(page.text, "tile")).toEqual([]);
    expect(drawn(page.text, "group")).toEqual(["tag:web", "tag:db", "untagged"]);
    expect(textOf(shape(page.text, "group", "tag:web"))).toContain("tag:web 200 (150 online)");
    expect(itemsOf(page.text, "Device groups")[1]).toBe("tag:db: 90 (0 online) Open tag:db");
    // Bounded: three group tiles whatever the count, the page a few KiB (300 tiles alone would be ~100 KiB).
    expect(page.text.length).toBeLessThan(24_000);

    const found = await agent.get(`/networks/${network.id}/map?q=needle`);
    expect(textOf(shape(found.text, "group", "tag:db"))).toContain("1 matching");
    const tiles = drawn(found.text, "tile");
    expect(tiles).toHaveLength(90); // tag:db opened: its tiles, the match first
    expect(tiles[0]).toBe(made[250]?.id);
    expect(shape(found.text, "tile", made[250]!.id)).toContain('stroke-width="3"');
    expect(itemsOf(found.text, "Matching nodes")).toEqual(["needle-db: never seen (tag:db)"]);

    // Opening the largest group draws at most OPEN_LIMIT tiles.
    const opened = await agent.get(`/networks/${network.id}/map?open=tag%3Aweb`);
    expect(drawn(opened.text, "tile")).toHaveLength(Math.min(200, OPEN_LIMIT));
    expect(textOf(opened.text)).toContain("tag:web: 200 (150 online) (open on the map)");
  }, 120_000);
});
