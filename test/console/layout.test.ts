import { describe, expect, it } from "vitest";
import { byId } from "../../client/index.ts";
import { api } from "../helpers/api";
import { createNode, expectStatus, networkSetup } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);

describe("console layout details", () => {
  it("draws the chain with a legend, each hop's name once, and keeps the words for screen readers only", async () => {
    const { admin, network, hops } = await networkSetup({ gateways: 2 });
    const [gw1, gw2] = hops as [(typeof hops)[0], (typeof hops)[0]];
    expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/routing-policies", {
        ...byId(network.id),
        body: { name: "two-hop", type: "via_gateway", destinationCidr: "172.24.0.0/16", gatewayPath: [gw1.id, gw2.id] },
      }),
      201,
    );
    const page = await (await adminAgent()).get(`/networks/${network.id}/policies`);
    const svg = page.text.slice(page.text.indexOf('<svg role="img"'), page.text.indexOf("</svg>", page.text.indexOf('<svg role="img"')));
    const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
    expect(texts.filter((text) => text?.includes("gw1"))).toEqual(["gw1"]);
    expect(textOf(page.text)).toContain("healthy drained or awaiting agent unhealthy ▶ carries the traffic");
    expect(page.text).toContain('<ol class="visually-hidden" aria-label="Hops of two-hop, in order">');
    // The pool form's Preempt checkbox sits with its label.
    expect(page.text).toMatch(/<div class="check"><input type="checkbox" id="preempt"[^>]*\/><label for="preempt">/);
  });

  it("marks the network's Delete as a danger button and the active tab as current", async () => {
    const { network } = await networkSetup();
    const page = await (await adminAgent()).get(`/networks/${network.id}/dns`);
    expect(page.text).toContain('<ul class="buttons tabs">');
    expect(page.text).toContain(`<a href="/networks/${network.id}/dns" aria-current="page">DNS</a>`);
    const overview = await (await adminAgent()).get(`/networks/${network.id}`);
    expect(overview.text).toContain(`<a class="button danger" href="/networks/${network.id}/delete">`);
    const css = await (await adminAgent()).get("/assets/console.css");
    expect(css.text).toContain('.tabs a[aria-current="page"]');
    expect(css.text).toContain("pre.command { white-space: pre-wrap; overflow-wrap: anywhere; }");
  });

  it("wraps the enrolment command to copy", async () => {
    const { network } = await networkSetup();
    const agent = await adminAgent();
    const created = await agent.post("/enrolment-keys", { network: network.id, name: "wrap", usageLimit: "1", expiresInSeconds: "3600" });
    expect(created.status).toBe(201);
    expect(created.text).toContain('<pre class="command"><code id="key-up">wgo up --api');
  });

  it("does not paint a peer's 'not a DNS server' as a warning", async () => {
    const { admin, network } = await networkSetup();
    await createNode(admin, network.id, { name: "plain-peer" });
    const page = await (await adminAgent()).get(`/networks/${network.id}/status`);
    expect(page.text).toContain("<span>not a DNS server</span>");
    expect(page.text).not.toContain('class="status-warn">not a DNS server');
  });

  it("sends a GET of a form's URL (a reload after a refused form) to the form's page, not to Not found", async () => {
    const { network } = await networkSetup();
    const agent = await adminAgent();
    const refused = await agent.post(`/networks/${network.id}/pools`, { name: "", member1: "" });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    for (const [path, page] of [
      [`/networks/${network.id}/pools`, `/networks/${network.id}/policies`],
      [`/networks/${network.id}/nodes/node_x/endpoint`, `/networks/${network.id}/nodes`],
      [`/networks/${network.id}/dns/records`, `/networks/${network.id}/dns`],
      [`/networks/${network.id}/access/preview`, `/networks/${network.id}/access`],
      ["/admin/gateways", "/admin/inventory"],
      ["/notifications/channels", "/notifications"],
    ]) {
      const reloaded = await agent.get(path ?? "");
      expect(reloaded.status, path).toBe(303);
      expect(reloaded.location, path).toBe(page);
    }
    expect((await agent.get("/nothing/here")).status).toBe(404);
  });
});
