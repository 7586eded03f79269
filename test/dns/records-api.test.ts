import { describe, expect, it } from "vitest";
import { asText, type Schema } from "../../client/index.ts";
import { api, byId, post } from "../helpers/api";
import { expectError, expectRefused } from "../helpers/expect-error";
import { createNode, expectStatus, networkSetup, type Session } from "../helpers/factories";
import { rowsOf } from "../helpers/state";

/** A refused record write stores nothing and bumps no dnsRevision. */
const recordsAndRevisions = rowsOf("dns_records", "networks");

const createRecord = (admin: Session, networkId: string, body: Schema<"DnsRecordInput">) =>
  api(admin.token).POST("/api/v1/networks/{id}/dns/records", { ...byId(networkId), body });

describe("DNS records", () => {
  it("create, list, read, replace, delete; every write bumps dnsRevision by one", async () => {
    const { admin, network } = await networkSetup();
    const client = api(admin.token);
    const created = expectStatus(await createRecord(admin, network.id, { name: "DB", type: "A", value: "10.1.2.3" }), 201);
    expect(created).toMatchObject({ networkId: network.id, name: "db", type: "A", value: "10.1.2.3", ttl: 300, revision: 1 });
    expect(expectStatus(await client.GET("/api/v1/networks/{id}/dns/records", byId(network.id)), 200).items).toEqual([created]);
    expect(expectStatus(await client.GET("/api/v1/dns/records/{id}", byId(created.id)), 200)).toEqual(created);
    const replaced = expectStatus(
      await client.PUT("/api/v1/dns/records/{id}", {
        ...byId(created.id),
        body: { name: "db", type: "AAAA", value: "FD00:0::1", ttl: 60 },
      }),
      200,
    );
    expect(replaced).toMatchObject({ type: "AAAA", value: "fd00::1", ttl: 60, revision: 2 });
    expect((await client.DELETE("/api/v1/dns/records/{id}", byId(created.id))).response.status).toBe(204);
    expectError(await client.GET("/api/v1/dns/records/{id}", byId(created.id)), 404, "not_found");
    expect(expectStatus(await client.GET("/api/v1/networks/{id}", byId(network.id)), 200).dnsRevision).toBe(3);
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
    const { admin, network } = await networkSetup();
    // Sent raw: some of these (type MX) are outside the schema's types.
    await expectRefused(
      recordsAndRevisions,
      () => post(`/networks/${network.id}/dns/records`, body, admin.token),
      422,
      "VALIDATION_ERROR",
      [field],
    );
  });

  it("conflicts: a CNAME beside anything at its name, exact duplicates, a CNAME at the apex (409)", async () => {
    const { admin, network } = await networkSetup();
    const create = (body: Schema<"DnsRecordInput">) => createRecord(admin, network.id, body);
    expectStatus(await create({ name: "app", type: "A", value: "10.0.0.5" }), 201);
    expectStatus(await create({ name: "app", type: "A", value: "10.0.0.6" }), 201);
    await expectRefused(recordsAndRevisions, () => create({ name: "app", type: "A", value: "10.0.0.5" }), 409, "conflict");
    await expectRefused(recordsAndRevisions, () => create({ name: "app", type: "CNAME", value: "other" }), 409, "conflict");
    expectStatus(await create({ name: "alias", type: "CNAME", value: "app" }), 201);
    await expectRefused(recordsAndRevisions, () => create({ name: "alias", type: "TXT", value: "x" }), 409, "conflict");
    await expectRefused(recordsAndRevisions, () => create({ name: "@", type: "CNAME", value: "app" }), 409, "conflict");
    expect(expectStatus(await api(admin.token).GET("/api/v1/networks/{id}", byId(network.id)), 200).dnsRevision).toBe(3);
  });

  it("a TXT record at a node's name sits beside the node's address record", async () => {
    const { admin, network } = await networkSetup();
    const node = await createNode(admin, network.id, { name: "laptop" });
    expectStatus(await createRecord(admin, network.id, { name: "laptop", type: "TXT", value: "owner=ada" }), 201);
    const zone = expectStatus(await api(admin.token).GET("/api/v1/networks/{id}/dns/zonefile", { ...byId(network.id), ...asText }), 200);
    expect(zone).toContain(`laptop\t300\tIN\tA\t${node.address}\n`);
    expect(zone).toContain('laptop\t300\tIN\tTXT\t"owner=ada"\n');
  });
});
