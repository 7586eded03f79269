import { describe, expect, it } from "vitest";
import { del, get, post, put } from "../helpers/api";
import { createGroup, createNetwork, signInAdmin } from "../helpers/factories";

async function dnsNetwork() {
  const admin = await signInAdmin();
  const group = await createGroup(admin);
  const network = await createNetwork(admin, group.id);
  return { admin, network };
}

describe("DNS records", () => {
  it("create, list, read, replace, delete; every write bumps dnsRevision by one", async () => {
    const { admin, network } = await dnsNetwork();
    const created = await post(`/networks/${network.id}/dns/records`, { name: "DB", type: "A", value: "10.1.2.3" }, admin.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ networkId: network.id, name: "db", type: "A", value: "10.1.2.3", ttl: 300, revision: 1 });
    expect((await get(`/networks/${network.id}/dns/records`, admin.token)).body.items).toEqual([created.body]);
    expect((await get(`/dns/records/${created.body.id}`, admin.token)).body).toEqual(created.body);
    const replaced = await put(`/dns/records/${created.body.id}`, { name: "db", type: "AAAA", value: "FD00:0::1", ttl: 60 }, admin.token);
    expect(replaced.body).toMatchObject({ type: "AAAA", value: "fd00::1", ttl: 60, revision: 2 });
    expect((await del(`/dns/records/${created.body.id}`, admin.token)).status).toBe(204);
    expect((await get(`/dns/records/${created.body.id}`, admin.token)).status).toBe(404);
    expect((await get(`/networks/${network.id}`, admin.token)).body.dnsRevision).toBe(3);
  });

  it.each([
    [{ name: "web", type: "A", value: "fd00::1" }, "value"],
    [{ name: "web", type: "AAAA", value: "10.0.0.1" }, "value"],
    [{ name: "web", type: "CNAME", value: "not a host!" }, "value"],
    [{ name: "bad_label", type: "A", value: "10.0.0.1" }, "name"],
    [{ name: `${"a".repeat(64)}`, type: "A", value: "10.0.0.1" }, "name"],
    [{ name: "web", type: "A", value: "10.0.0.1", ttl: 29 }, "ttl"],
    [{ name: "web", type: "A", value: "10.0.0.1", ttl: 86401 }, "ttl"],
    [{ name: "web", type: "MX", value: "10 mail" }, "type"],
    [{ name: "web", type: "TXT", value: "" }, "value"],
  ])("refuses %j with 422 on %s", async (body, field) => {
    const { admin, network } = await dnsNetwork();
    const response = await post(`/networks/${network.id}/dns/records`, body, admin.token);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("VALIDATION_ERROR");
    expect(response.body.error.fields[0].path).toBe(field);
  });

  it("conflicts: a CNAME beside anything at its name, exact duplicates, a CNAME at the apex (409)", async () => {
    const { admin, network } = await dnsNetwork();
    const url = `/networks/${network.id}/dns/records`;
    expect((await post(url, { name: "app", type: "A", value: "10.0.0.5" }, admin.token)).status).toBe(201);
    expect((await post(url, { name: "app", type: "A", value: "10.0.0.6" }, admin.token)).status).toBe(201);
    expect((await post(url, { name: "app", type: "A", value: "10.0.0.5" }, admin.token)).status).toBe(409);
    expect((await post(url, { name: "app", type: "CNAME", value: "other" }, admin.token)).status).toBe(409);
    expect((await post(url, { name: "alias", type: "CNAME", value: "app" }, admin.token)).status).toBe(201);
    expect((await post(url, { name: "alias", type: "TXT", value: "x" }, admin.token)).status).toBe(409);
    expect((await post(url, { name: "@", type: "CNAME", value: "app" }, admin.token)).status).toBe(409);
    expect((await get(`/networks/${network.id}`, admin.token)).body.dnsRevision).toBe(3);
  });
});
