import { describe, expect, it } from "vitest";
import { call, del, get, post } from "../helpers/api";
import { createGroup, createNetwork, createNode, signInAdmin, type Session } from "../helpers/factories";
import { asText, etagOf, ifNoneMatch, isNotModified } from "../../client/index.ts";
import { api, byId } from "../helpers/api";
import { createGateway, expectStatus, networkSetup } from "../helpers/factories";

const RECORDS = [
  { name: "@", type: "TXT", value: "v=spf1 -all" },
  { name: "db", type: "A", value: "10.5.0.10" },
  { name: "db", type: "A", value: "10.5.0.9" },
  { name: "www", type: "CNAME", value: "db" },
  { name: "v6", type: "AAAA", value: "fd00::10" },
  { name: "note", type: "TXT", value: "x".repeat(600) },
];

async function networkWith(admin: Session, order: number[], domain: string) {
  const group = await createGroup(admin);
  const network = await createNetwork(admin, group.id, "10.5.0.0/24");
  await call("PATCH", `/networks/${network.id}`, { token: admin.token, body: { dnsDomain: domain } });
  for (const index of order) await post(`/networks/${network.id}/dns/records`, RECORDS[index], admin.token);
  return network;
}

const zoneOf = async (admin: Session, networkId: string) => (await get(`/networks/${networkId}/dns/zonefile`, admin.token)).text;

describe("DNS artifacts", () => {
  it("the same records in any order, or deleted and re-created, give byte-identical zone files", async () => {
    const admin = await signInAdmin();
    const a = await networkWith(admin, [0, 1, 2, 3, 4, 5], "corp.internal");
    const b = await networkWith(admin, [5, 3, 1, 4, 0, 2], "corp.internal");
    const zoneA = await zoneOf(admin, a.id);
    expect(zoneA).toBe(await zoneOf(admin, b.id));
    const items = (await get(`/networks/${b.id}/dns/records`, admin.token)).body.items as { id: string; name: string }[];
    for (const item of items.filter((record) => record.name === "db")) await del(`/dns/records/${item.id}`, admin.token);
    expect(await zoneOf(admin, b.id)).not.toBe(zoneA);
    await post(`/networks/${b.id}/dns/records`, RECORDS[2], admin.token);
    await post(`/networks/${b.id}/dns/records`, RECORDS[1], admin.token);
    expect(await zoneOf(admin, b.id)).toBe(zoneA);
    expect(zoneA).toMatch(/^\$ORIGIN corp\.internal\.\n/);
    expect(zoneA).not.toMatch(/net_|dns_|20\d\d-/);
  });

  it("nodes answer as <name>.<domain>; a manual record at a node's name wins", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.6.0.0/24" });
    await createNode(admin, network.id, { name: "laptop" });
    await createNode(admin, network.id, { name: "server" });
    await post(`/networks/${network.id}/dns/records`, { name: "server", type: "CNAME", value: "laptop" }, admin.token);
    const zone = await zoneOf(admin, network.id);
    expect(zone).toContain("laptop\t300\tIN\tA\t10.6.0.1\n");
    expect(zone).toContain("server\t300\tIN\tCNAME\tlaptop\n");
    expect(zone).not.toContain("10.6.0.2");
  });

  it("serves text/plain with a strong ETag and answers 304 to If-None-Match", async () => {
    const admin = await signInAdmin();
    const network = await networkWith(admin, [1], "etag.internal");
    for (const kind of ["zonefile", "corefile"]) {
      const first = await get(`/networks/${network.id}/dns/${kind}`, admin.token);
      expect(first.status).toBe(200);
      expect(first.headers.get("content-type")).toContain("text/plain");
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
      const again = await call("GET", `/networks/${network.id}/dns/${kind}`, { token: admin.token, headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
    }
    const before = (await get(`/networks/${network.id}/dns/zonefile`, admin.token)).headers.get("etag")!;
    await post(`/networks/${network.id}/dns/records`, RECORDS[4], admin.token);
    const changed = await call("GET", `/networks/${network.id}/dns/zonefile`, { token: admin.token, headers: { "If-None-Match": before } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(before);
  });

  it("the Corefile serves the network's zone from its file", async () => {
    const admin = await signInAdmin();
    const network = await networkWith(admin, [], "ops.example");
    const corefile = (await get(`/networks/${network.id}/dns/corefile`, admin.token)).text;
    expect(corefile).toContain("ops.example:53 {\n");
    expect(corefile).toContain("    file /etc/coredns/zones/ops.example.zone ops.example {\n");
    expect(corefile).toMatch(/\n {4}errors\n {4}log\n}\n$/);
  });
});

describe("the zone follows the gateway role", () => {
  it("turning the gateway role on or off bumps the DNS revision (the zone's name server moves)", async () => {
    const { admin, network } = await networkSetup();
    const client = api(admin.token);
    await createNode(admin, network.id);
    // The second node (.2): as a gateway it becomes the name server instead of the range's first address (.1).
    const node = await createNode(admin, network.id);
    const before = expectStatus(await client.GET("/api/v1/networks/{id}", byId(network.id)), 200).dnsRevision;
    const zoneBefore = expectStatus(await client.GET("/api/v1/networks/{id}/dns/zonefile", { ...byId(network.id), ...asText }), 200);
    expectStatus(
      await client.PATCH("/api/v1/nodes/{id}", {
        ...byId(node.id),
        body: { roles: ["gateway"], gatewayId: (await createGateway(admin)).id },
      }),
      200,
    );
    expect(expectStatus(await client.GET("/api/v1/networks/{id}", byId(network.id)), 200).dnsRevision).toBe(before + 1);
    const zoneAfter = expectStatus(await client.GET("/api/v1/networks/{id}/dns/zonefile", { ...byId(network.id), ...asText }), 200);
    expect(zoneAfter).not.toBe(zoneBefore);
  });
});

describe("artifacts through the typed client", () => {
  it("an unchanged zone file answers 304 to If-None-Match; a change answers the new text and ETag", async () => {
    const { admin, network } = await networkSetup();
    const client = api(admin.token);
    const zonefile = (headers: Record<string, string> = {}) =>
      client.GET("/api/v1/networks/{id}/dns/zonefile", {
        ...byId(network.id),
        parseAs: "text",
        headers: { Accept: "text/plain", ...headers },
      });
    const first = await zonefile();
    expect(first.response.status).toBe(200);
    const etag = etagOf(first);
    expect(etag).toBeTruthy();
    const unchanged = await zonefile(ifNoneMatch(etag!));
    expect(isNotModified(unchanged)).toBe(true);
    await createNode(admin, network.id, { name: "fresh" });
    const changed = await zonefile(ifNoneMatch(etag!));
    expect(isNotModified(changed)).toBe(false);
    expect(changed.data).toContain("fresh\t300\tIN\tA\t");
    expect(etagOf(changed)).not.toBe(etag);
  });
});
