// Every console form puts the API's refusal beside the field it is about (the node and policy forms' pattern,
// src/console/fields.tsx): the control is aria-invalid and described by the error, which the notice at the
// top links to by the field's label; ids the page can name are names.
import { describe, expect, it } from "vitest";
import { createGroup, createNetwork, networkSetup, signInAdmin } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);

/** What a person (and a screen reader) gets at the field `id`: the error beside it, and whether the control says so. */
function atField(html: string, id: string) {
  const error = new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];
  const control = new RegExp(`<(?:input|select|textarea) id="${id}"[^>]*>`).exec(html)?.[0] ?? "";
  const describedBy = /aria-describedby="([^"]*)"/.exec(control)?.[1]?.split(" ") ?? [];
  return { error: error && textOf(error), invalid: control.includes('aria-invalid="true"'), describedBy };
}

/** The refusal is beside `id` (and only there among `others`), announced by the control, linked from the notice. */
function expectBeside(html: string, id: string, label: string) {
  const at = atField(html, id);
  expect(at.error, `an error beside #${id}`).toBeTruthy();
  expect(at.invalid).toBe(true);
  expect(at.describedBy).toContain(`${id}-error`);
  expect(html).toContain(`<a href="#${id}">${label}</a>:`);
  return at.error ?? "";
}

describe("console field errors: groups and people", () => {
  it("a group's name, an invite's email, a member who is one already", async () => {
    const admin = await signInAdmin();
    const agent = await adminAgent();
    const noName = await agent.post("/groups", { name: "" });
    expect(noName.status).toBe(422);
    expectBeside(noName.text, "group-name", "Name");

    const group = await createGroup(admin);
    const badEmail = await agent.post(`/groups/${group.id}/invites`, { email: "not an address", role: "member" });
    expect(badEmail.status).toBe(422);
    expectBeside(badEmail.text, "invite-email", "Email");
    expect(atField(badEmail.text, "member-who").error).toBeUndefined(); // the other form stays clean
    expect(badEmail.text).toContain('value="not an address"');

    // A 409 has no fields[]: its sentence is about the person typed in, so it goes beside that field.
    const already = await agent.post(`/groups/${group.id}/members`, { who: TEST_ADMIN.email, role: "member" });
    expect(already.status).toBe(409);
    expect(atField(already.text, "member-who").error).toContain("already a member");
    expect(atField(already.text, "member-who").invalid).toBe(true);
  });
});

describe("console field errors: networks and DNS records", () => {
  it("a CIDR with host bits, a name the group has, a record value that is not an address", async () => {
    const admin = await signInAdmin();
    const agent = await adminAgent();
    const group = await createGroup(admin);
    const hostBits = await agent.post("/networks", { groupId: group.id, name: "hb", cidr: "10.251.3.1/24" });
    expect(hostBits.status).toBe(422);
    expect(expectBeside(hostBits.text, "cidr", "Address range (CIDR)")).toMatch(/host bits/i);
    expect(atField(hostBits.text, "name").error).toBeUndefined();

    const taken = await createNetwork(admin, group.id);
    const twice = await agent.post("/networks", { groupId: group.id, name: taken.name, cidr: "10.251.4.0/24" });
    expect(twice.status).toBe(409);
    const beside = atField(twice.text, "name");
    expect(beside.invalid).toBe(true);
    // The API's sentence names the network by id too; here it is named once, by its name.
    expect(beside.error).toBe(`The group already has a network named "${taken.name}"`);

    const record = await agent.post(`/networks/${taken.id}/dns/records`, { name: "db", type: "A", value: "not-an-ip", ttl: "" });
    expect(record.status).toBe(422);
    expectBeside(record.text, "record-value", "Value");
    expect(atField(record.text, "record-name").error).toBeUndefined();
  });
});

describe("console field errors: gateway pools", () => {
  it("a member repeated, in the form's words beside its select; a pool name in use", async () => {
    const { network, hops } = await networkSetup({ gateways: 2 });
    const [gw1, gw2] = hops as [(typeof hops)[0], (typeof hops)[0]];
    const agent = await adminAgent();
    const repeated = await agent.post(`/networks/${network.id}/pools`, { name: "edge", member1: gw1.id, member2: gw1.id });
    expect(repeated.status).toBe(400);
    expect(atField(repeated.text, "member2").error).toBe("Member 2 (gw1) repeats an earlier member");
    expect(atField(repeated.text, "member2").invalid).toBe(true);
    expect(repeated.text).not.toContain(`(${gw1.id})`);
    // The policy form on the same page keeps its fields clean.
    expect(atField(repeated.text, "policy-name").error).toBeUndefined();

    expect((await agent.post(`/networks/${network.id}/pools`, { name: "edge", member1: gw1.id })).status).toBe(303);
    const named = await agent.post(`/networks/${network.id}/pools`, { name: "edge", member1: gw2.id });
    expect(named.status).toBe(409);
    expect(atField(named.text, "pool-name").error).toMatch(/^Gateway pool edge already uses the name "edge"/);
  });
});

describe("console field errors: inventory, notifications, settings", () => {
  it("a region without a name, a gateway's capacity, a webhook target, a token lifetime out of range", async () => {
    const agent = await adminAgent();
    const region = await agent.post("/admin/regions", { name: "" });
    expect(region.status).toBe(422);
    expectBeside(region.text, "region-name", "Region name");
    expect(atField(region.text, "gateway-name").error).toBeUndefined();

    expect((await agent.post("/admin/regions", { name: "eu-fields" })).status).toBe(303);
    const page = await agent.get("/admin/inventory");
    const regionId = /<option value="([^"]+)"[^>]*>eu-fields<\/option>/.exec(page.text)?.[1] ?? "";
    const capacity = await agent.post("/admin/gateways", { regionId, name: "edge-cap", capacity: "-3" });
    expect(capacity.status).toBe(422);
    expectBeside(capacity.text, "gateway-capacity", "Capacity");
    expect(capacity.text).toContain('value="edge-cap"');

    const webhook = await agent.post("/notifications/channels", { type: "webhook", target: "not a url", events: "node.offline" });
    expect(webhook.status).toBe(422);
    expectBeside(webhook.text, "channel-target", "Target");
    expect(atField(webhook.text, "channel-target").describedBy).toEqual(["target-help", "channel-target-error"]);

    const settings = await agent.post("/admin/settings", {
      routingPolicyMaxHops: "",
      eligibleStatuses: "active",
      eligibleRegions: "",
      accessTokenSeconds: "10",
      refreshTokenSeconds: "",
      offlineAfterSeconds: "",
      signUpMode: "invites",
    });
    expect(settings.status).toBe(422);
    expectBeside(settings.text, "access-seconds", "Access token lifetime");
    expect(atField(settings.text, "max-hops").error).toBeUndefined();
  });
});
