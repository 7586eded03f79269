import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { createGroup, unique } from "../helpers/factories";
import { changedTables, settle, snapshot } from "../fuzz/snapshot";
import { FIELDS, type Who } from "./display-fields";
import { buildTenants, fill, type Tenants } from "./tenants";
import { headerText } from "../../src/services/mail/header-text";

/**
 * Issue 12, item 5 (the full list of free-text fields and how each is held: display-text.test.ts): names and short free text reach other systems (mail subjects, terminals, web pages),
 * so every field a person names something with refuses control characters, bidi overrides and
 * isolates, zero-width characters, line separators and lone surrogates (422), and mail headers never
 * carry raw user text.
 */
const HOSTILE: [string, string][] = [
  ["CR LF (header injection)", "team\r\nBcc: attacker@evil.test"],
  ["LF", "a\nb"],
  ["NUL", "a\u0000b"],
  ["tab", "a\tb"],
  ["DEL", "a\u007fb"],
  ["C1 next line", "a\u0085b"],
  ["right-to-left override", "invoice\u202Egpj.exe"],
  ["left-to-right embedding", "a\u202Ab"],
  ["first strong isolate", "a\u2068b"],
  ["pop directional isolate", "a\u2069b"],
  ["zero-width space", "ad\u200Bmin"],
  ["zero-width joiner", "a\u200Db"],
  ["word joiner", "a\u2060b"],
  ["inner byte-order mark", "a\uFEFFb"],
  ["line separator", "a\u2028b"],
  ["paragraph separator", "a\u2029b"],
  ["lone high surrogate", "a\uD800b"],
  ["lone low surrogate", "a\uDC00b"],
];

let t: Tenants;
let agentToken: string;
beforeAll(async () => {
  t = await buildTenants();
  const region = await post("/regions", { name: unique("dn-region") }, t.admin.token);
  const gateway = await post("/gateways", { regionId: region.body.id, name: unique("dn-gw") }, t.admin.token);
  const issued = await post("/agents/enrolment-tokens", { kind: "gateway-manager", regionId: region.body.id }, t.admin.token);
  const agent = await post("/agents/enrol", { token: issued.body.token, name: "dn-agent" });
  expect(agent.status, agent.text).toBe(201);
  const own = await post("/agents/me/gateways", { name: unique("dn-own") }, agent.body.credential);
  expect(own.status, own.text).toBe(201);
  agentToken = agent.body.credential;
  t.a.region = region.body.id;
  t.a.gateway = gateway.body.id;
  t.a.agw = own.body.id;
  await settle();
}, 60_000);

const tokenOf = (who: Who) => ({ alice: t.alice.token, admin: t.admin.token, agent: agentToken, anonymous: undefined })[who];

describe("item 5: display names refuse control, bidi, zero-width and surrogate characters", () => {
  const rows = FIELDS.map(([who, method, template, base, field]) => [who, method, template, field, base] as const);
  it.each(rows)("%s %s %s: every hostile %s is 422 naming it, and changes nothing", async (who, method, template, field, base) => {
    const before = await snapshot();
    const path = fill(template, t);
    for (const [label, value] of HOSTILE) {
      const body = { ...JSON.parse(fill(JSON.stringify(base), t)), [field]: value };
      const response = await call(method, path, { token: tokenOf(who), body });
      expect(response.status, `${label}: ${response.text}`).toBe(422);
      expect(response.body.error.code).toBe("VALIDATION_ERROR");
      expect(
        response.body.error.fields.map((f: { path: string }) => f.path),
        label,
      ).toContain(field);
    }
    await settle();
    expect(changedTables(before, await snapshot())).toEqual([]);
  });

  it("letters of any script, emoji and ordinary spaces stay allowed", async () => {
    for (const name of ["Büro Zürich", "東京 オフィス", "مكتب دبي", "launch 🚀 team", "O'Brien & Co. (EU)"]) {
      const group = await post("/groups", { name: `${name} ${unique("")}` }, t.alice.token);
      expect(group.status, group.text).toBe(201);
      expect(group.body.name.startsWith(name)).toBe(true);
    }
  });
});

describe("item 5: mail headers never carry raw user text", () => {
  it("an invite for a group whose stored name holds CR LF mails a fixed subject; the name stays in the body, escaped", async () => {
    const group = await createGroup(t.alice);
    // A name stored before names were checked (or written by any other path) must not reach a header either.
    await env.DB.prepare("UPDATE groups SET name = ? WHERE id = ?").bind("legacy\r\nBcc: attacker@evil.test\r\n\r\nbody", group.id).run();
    const email = `${unique("dn-invite")}@example.com`;
    const invite = await post(`/groups/${group.id}/invites`, { email, role: "viewer" }, t.alice.token);
    expect(invite.status, invite.text).toBe(201);
    const mail = await get(`/dev/mail?to=${email}`);
    expect(mail.body.items).toHaveLength(1);
    const { subject, text } = mail.body.items[0];
    expect(subject).toBe("You are invited to a group");
    expect(text).toContain(JSON.stringify("legacy\r\nBcc: attacker@evil.test\r\n\r\nbody"));
    expect(text).not.toMatch(/^Bcc:/m);
  });

  it("any subject is reduced to one line of visible text before a transport sees it", () => {
    expect(headerText("Gateway x\r\nBcc: a@evil.test is down")).toBe("Gateway x Bcc: a@evil.test is down");
    expect(headerText("Node \u202Egpj.exe\u2066 \u200B\u0000 is offline")).toBe("Node gpj.exe is offline");
    expect(headerText("a\u2028b\u2029c\u00A0d\uD800e")).toBe("a b c d e");
    const long = headerText("🚀".repeat(400));
    expect(Array.from(long).length).toBeLessThanOrEqual(160);
    expect(/\p{Cs}/u.test(long)).toBe(false);
  });
});
