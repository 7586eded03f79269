// A network's "Add a device" page (issue 47): the laptop's two commands with the network's name, the enrolment
// key for machines no one signs in on, and the phone page, whose POST registers a public key made in the browser.
import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createNetwork, expectStatus, fakePublicKey, networkSetup } from "../helpers/factories";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

const PASSWORD = "a long enough password";

describe("console: adding a device to a network", { timeout: 30_000 }, () => {
  it("shows `wgo up` with the network's name (quoted when it has spaces), then `wgo install-service`, after installing wgo from the server", async () => {
    const { owner, network, group } = await networkSetup({ owner: "user" });
    const agent = await signedInAgent(owner.email, PASSWORD);
    const overview = await agent.get(`/networks/${network.id}`);
    expect(overview.text, "every network page offers it").toContain(`href="/networks/${network.id}/add-device"`);
    const page = await agent.get(`/networks/${network.id}/add-device`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      `<code id="laptop-up">wgo up --api https://console.test --network ${network.name} --email ${owner.email}</code>`,
    );
    expect(page.text).toContain('<code id="laptop-service">wgo install-service</code>');
    // wgo itself comes from this control plane first (GET /api/v1/install.sh).
    expect(page.text).toContain('<code id="laptop-install">curl -fsSL https://console.test/api/v1/install.sh | sh</code>');
    expect(page.text).not.toContain(`--network ${network.id}`);
    expect(textOf(page.text)).toContain(`Create an enrolment key for ${network.name}`);
    expect(page.text).toContain(`href="/networks/${network.id}/add-phone"`);

    const spaced = await createNetwork(owner, group.id, undefined, "head office");
    const quoted = await agent.get(`/networks/${spaced.id}/add-device`);
    expect(quoted.text).toContain("--network &#39;head office&#39; --email");
  });

  it("the phone page's POST enrols the signed-in user's device with the public key alone and answers its config", async () => {
    const { owner, network } = await networkSetup({ owner: "user" });
    const agent = await signedInAgent(owner.email, PASSWORD);
    const page = await agent.get(`/networks/${network.id}/add-phone`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script src="/assets/phone.js"></script>');
    expect(page.text).toContain('<script src="/assets/qrcode-generator-2.0.4.js"></script>');

    const publicKey = fakePublicKey();
    const answer = await agent.post(`/networks/${network.id}/add-phone`, { name: "ada-phone", platform: "iOS", publicKey });
    expect(answer.status).toBe(201);
    const body = JSON.parse(answer.text);
    expect(body).toMatchObject({ name: "ada-phone", fileName: "ada-phone.conf", placeholder: "REPLACE_WITH_PRIVATE_KEY" });
    expect(body.config).toContain("PrivateKey = REPLACE_WITH_PRIVATE_KEY");
    expect(body.config).toContain("[Interface]");
    expect(body).not.toHaveProperty("deviceToken");
    const devices = expectStatus(await api(owner.token).GET("/api/v1/devices", { params: { query: { limit: 200 } } }), 200).items;
    expect(devices.find((device) => device.name === "ada-phone")).toMatchObject({
      publicKey,
      userId: owner.userId,
      platform: "iOS",
      clientVersion: "WireGuard app (config file)",
    });

    // A refusal is the API's sentence, as JSON for the page's script, and nothing is enrolled.
    const refused = await agent.post(`/networks/${network.id}/add-phone`, {
      name: "ada-phone",
      platform: "iOS",
      publicKey: fakePublicKey(),
    });
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text).message).toMatch(/ada-phone/);
    const forged = await agent.post(`/networks/${network.id}/add-phone`, { name: "bad key", publicKey: "not-a-key" });
    expect(forged.status).toBe(422);
  });

  it("serves the phone script and the pinned QR library from the Worker", async () => {
    const { owner } = await networkSetup({ owner: "user" });
    const agent = await signedInAgent(owner.email, PASSWORD);
    const script = await agent.get("/assets/phone.js");
    expect(script.status).toBe(200);
    expect(script.text).toContain('crypto.subtle.generateKey({ name: "X25519" }');
    const library = await agent.get("/assets/qrcode-generator-2.0.4.js");
    expect(library.status).toBe(200);
    expect(library.headers.get("Content-Type")).toContain("javascript");
    expect(library.text).toContain("QR Code Generator for JavaScript");
    expect(library.headers.get("Content-Security-Policy")).toContain("connect-src 'self'");
  });
});
