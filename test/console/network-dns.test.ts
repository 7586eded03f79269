import { describe, expect, it } from "vitest";
import { byId } from "../../client/index.ts";
import { api, call } from "../helpers/api";
import { expectStatus, networkSetup } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { rowOf, textOf } from "./support/html";

const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
const recordsOf = async (token: string, networkId: string) =>
  expectStatus(await api(token).GET("/api/v1/networks/{id}/dns/records", byId(networkId)), 200).items;

describe("console DNS page", () => {
  it("shows its empty state, then adds, edits and deletes a record through the forms", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.240.7.0/24" });
    const agent = await adminAgent();
    const base = `/networks/${network.id}/dns`;
    expect(textOf((await agent.get(base)).text)).toContain("No records added by hand. Add one below.");

    const added = await agent.post(`${base}/records`, { name: "db", type: "A", value: "10.240.7.40", ttl: "600" });
    expect(added.status).toBe(303);
    const [record] = await recordsOf(admin.token, network.id);
    expect(record).toMatchObject({ name: "db", type: "A", value: "10.240.7.40", ttl: 600 });
    expect(rowOf((await agent.get(base)).text, "db")).toBe("db A 10.240.7.40 600 Edit db A Delete db A");

    const form = await agent.get(`${base}/${record?.id}/edit`);
    expect(form.text).toContain('value="10.240.7.40"');
    expect(form.text).toContain('<option value="A" selected="">');
    expect((await agent.post(`${base}/${record?.id}/edit`, { name: "db", type: "TXT", value: "primary", ttl: "" })).status).toBe(303);
    expect((await recordsOf(admin.token, network.id))[0]).toMatchObject({ id: record?.id, type: "TXT", value: "primary", ttl: 300 });

    expect((await agent.post(`${base}/${record?.id}/delete`, {})).status).toBe(303);
    expect(await recordsOf(admin.token, network.id)).toEqual([]);
  });

  it("re-renders a refused record with the API's message and what was typed", async () => {
    const { network } = await networkSetup();
    const agent = await adminAgent();
    const refused = await agent.post(`/networks/${network.id}/dns/records`, { name: "web", type: "A", value: "not-an-address" });
    expect([400, 422]).toContain(refused.status);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain('value="not-an-address"');
  });

  it("downloads the Corefile and the zone file: the API's bytes, as attachments", async () => {
    const { admin, network } = await networkSetup();
    expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/dns/records", {
        ...byId(network.id),
        body: { name: "wiki", type: "CNAME", value: "db" },
      }),
      201,
    );
    const agent = await adminAgent();
    for (const [artifact, filename] of [
      ["corefile", "Corefile"],
      ["zonefile", `${network.dnsDomain}.zone`],
    ] as const) {
      const download = await agent.get(`/networks/${network.id}/dns/${artifact}`);
      const fromApi = await call("GET", `/networks/${network.id}/dns/${artifact}`, {
        token: admin.token,
        headers: { Accept: "text/plain" },
      });
      expect(fromApi.status).toBe(200);
      expect(download.status).toBe(200);
      expect(download.headers.get("Content-Disposition")).toBe(`attachment; filename="${filename}"`);
      expect(download.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
      expect(new TextEncoder().encode(download.text)).toEqual(new TextEncoder().encode(fromApi.text));
      expect(download.text.length).toBeGreaterThan(0);
    }
    expect((await agent.get(`/networks/${network.id}/dns/zonefile`)).text).toContain("wiki");
  });

  it("shows a viewer the records and downloads, without forms", async () => {
    const { admin, network, as } = await networkSetup();
    expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/dns/records", {
        ...byId(network.id),
        body: { name: "files", type: "TXT", value: "hello" },
      }),
      201,
    );
    const viewer = await as("viewer");
    const agent = await signedInAgent(viewer.email, "a long enough password");
    const page = await agent.get(`/networks/${network.id}/dns`);
    expect(rowOf(page.text, "files")).toBe("files TXT hello 300");
    expect(textOf(page.text)).toContain("Download Corefile");
    expect(page.text).not.toContain("Add a record");
    expect((await agent.get(`/networks/${network.id}/dns/corefile`)).status).toBe(200);
  });
});
