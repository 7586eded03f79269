// `BENCH_ONLY=directory npm run bench`: issue 43's scale figures. A directory of DIRECTORY_USERS people (10,000) and
// DIRECTORY_GROUPS groups (1,000, ten members each, a tenth of them mapped onto one of our groups) provisioned through
// SCIM as an identity provider sends it (POST each person; POST each group, then PATCH its members in); then a person
// with 5 devices in a 10,000-node network deprovisioned (PATCH active:false): the time until that answer, by which
// every peer's delta is out, and a peer's delta fetched after it. Requests/s, p50/p99, D1 rows a request (the Worker's
// binding, DEV_D1_METER=true). Written to bench/results/directory.md.
import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { afterAll, it } from "vitest";
import { api, login } from "../test/e2e/support/api-client.ts";
import { startWorker, type WorkerServer } from "../test/e2e/support/worker-server.ts";
import { measured, type Phase, publicKey, scimFetch } from "./directory-load.ts";
import { expectCreated, inParallel } from "./seed.ts";

let server: WorkerServer | undefined;
afterAll(async () => server?.stop());

const USERS = Number(process.env.DIRECTORY_USERS ?? 10_000);
const GROUPS = Number(process.env.DIRECTORY_GROUPS ?? 1_000);
const NETWORK_NODES = Number(process.env.DIRECTORY_NETWORK_NODES ?? 10_000);
const WIDTH = 16;
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load = () =>
  loadavg()
    .map((n) => fmt(n, 2))
    .join(" / ");
const line = (what: string, phase: Phase) =>
  `| ${what} | ${phase.requests} | ${fmt(phase.requests / phase.seconds)} | ${fmt(phase.p50)} / ${fmt(phase.p99)} ms | ${fmt(phase.statements, 2)} | ${fmt(phase.rowsRead, 1)} | ${fmt(phase.rowsWritten, 1)} |`;

const only = process.env.BENCH_ONLY;
it.skipIf(only !== undefined && only !== "directory")("directory at scale", async () => {
  const loadAtStart = load();
  server = await startWorker({ vars: { DEV_D1_METER: "true", THROTTLE_LOGIN_ACCOUNT: "10000/1", THROTTLE_LOGIN_ADDRESS: "10000/1" } });
  const s = server;
  const admin = api(s.baseUrl, await login(s.baseUrl, s.admin));
  const token = (await admin.post("/admin/scim-tokens", { name: "bench" })).body.token as string;
  const scim = scimFetch(s.baseUrl, token);

  const ids: string[] = new Array(USERS);
  const users = await measured(
    s.baseUrl,
    USERS,
    WIDTH,
    async (i) => {
      const email = `person${i}@example.com`;
      const body = { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: email, externalId: `00u${i}`, active: true };
      const response = await scim("POST", "/Users", {
        ...body,
        name: { givenName: "Person", familyName: String(i) },
        emails: [{ value: email, primary: true }],
      });
      if (response.status === 201) ids[i] = ((await response.clone().json()) as { id: string }).id;
      return response;
    },
    201,
  );
  const lookups = await measured(
    s.baseUrl,
    500,
    WIDTH,
    (i) => scim("GET", `/Users?filter=${encodeURIComponent(`userName eq "person${(i * 7919) % USERS}@example.com"`)}`),
    200,
  );

  const ours = await expectCreated("group", () => admin.post("/groups", { name: "directory-bench" }));
  for (let g = 0; g < GROUPS / 10; g++)
    await expectCreated("mapping", () =>
      admin.post("/admin/idp-group-mappings", { idpGroup: `team-${g}`, groupId: ours.id, role: "member" }),
    );
  const groupIds: string[] = new Array(GROUPS);
  const groups = await measured(
    s.baseUrl,
    GROUPS,
    WIDTH,
    async (g) => {
      const response = await scim("POST", "/Groups", {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
        displayName: `team-${g}`,
        externalId: `grp-${g}`,
      });
      if (response.status === 201) groupIds[g] = ((await response.clone().json()) as { id: string }).id;
      return response;
    },
    201,
  );
  const members = (g: number) => Array.from({ length: 10 }, (_, k) => ({ value: ids[(g * 10 + k) % USERS]! }));
  const patch = (g: number) => ({
    schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    Operations: [{ op: "add", path: "members", value: members(g) }],
  });
  const unmapped = await measured(
    s.baseUrl,
    GROUPS - GROUPS / 10,
    WIDTH,
    (k) => scim("PATCH", `/Groups/${groupIds[GROUPS / 10 + k]}`, patch(GROUPS / 10 + k)),
    204,
  );
  const mapped = await measured(s.baseUrl, GROUPS / 10, WIDTH, (g) => scim("PATCH", `/Groups/${groupIds[g]}`, patch(g)), 204);

  // A network of NETWORK_NODES nodes: plain nodes, one observing device, and the person's 5 devices.
  const network = await expectCreated("network", () => admin.post("/networks", { groupId: ours.id, name: "big", cidr: "10.64.0.0/18" }));
  const person = await expectCreated("person", () =>
    admin.post("/users", { email: "leaver@example.com", password: "a long enough password", name: "Leaver" }),
  );
  await expectCreated("member", () => admin.post(`/groups/${ours.id}/members`, { userId: person.id, role: "member" }));
  const seedStarted = Date.now();
  await inParallel(NETWORK_NODES - 6, 8, (i) =>
    expectCreated("node", () => admin.post("/nodes", { networkId: network.id, name: `n${i}`, publicKey: publicKey() })),
  );
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  const observer = await expectCreated("observer", () =>
    admin.post("/client/devices", { networkId: network.id, name: "observer", publicKey: publicKey() }),
  );
  const leaver = api(s.baseUrl, await login(s.baseUrl, { email: "leaver@example.com", password: "a long enough password" }));
  const laptops: string[] = [];
  for (let i = 0; i < 5; i++)
    laptops.push(
      (
        await expectCreated("laptop", () =>
          leaver.post("/client/devices", { networkId: network.id, name: `laptop${i}`, publicKey: publicKey() }),
        )
      ).node.id,
    );
  const configOf = (body?: unknown) =>
    fetch(`${s.baseUrl}/api/v1/client/devices/${observer.device.id}/config`, {
      method: "POST",
      headers: { authorization: `Bearer ${observer.deviceToken}`, "content-type": "application/json" },
      body: JSON.stringify(body ?? {}),
    }).then((r) => r.json() as Promise<any>);
  const held = await configOf();
  const writer = async () => (await admin.get(`/networks/${network.id}/writer`)).body as { rowsRead: number; rowsWritten?: number };
  const writerBefore = await writer();
  const sent = performance.now();
  const answer = await scim("PATCH", `/Users/${person.id}`, {
    schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    Operations: [{ op: "replace", path: "active", value: false }],
  });
  const answeredMs = performance.now() - sent;
  if (answer.status !== 200) throw new Error(`deprovision: ${answer.status} ${await answer.text()}`);
  const deltaAt = performance.now();
  const delta = await configOf({ sinceRevision: held.config.routingRevision });
  const deltaMs = performance.now() - deltaAt;
  const writerAfter = await writer();
  const removed = JSON.stringify(delta).match(new RegExp(laptops.join("|"), "g"))?.length ?? 0;

  const lines = [
    `Directory at scale (issue 43), ${new Date().toISOString()}: wrangler dev, local D1, ${WIDTH} requests in flight.`,
    `Load average (1/5/15 min) at the start ${loadAtStart}, at the end ${load()} (2 cores).`,
    "",
    "| SCIM requests | count | requests/s | p50 / p99 | D1 statements a request | rows read | rows written |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    line(`POST /Users (${USERS} people)`, users),
    line("GET /Users?filter=userName eq …", lookups),
    line(`POST /Groups (${GROUPS}, empty)`, groups),
    line("PATCH /Groups add 10 members (no mapping names the group)", unmapped),
    line("PATCH /Groups add 10 members (a mapping gives each a role)", mapped),
    "",
    `Deprovisioning a person with 5 devices in a ${NETWORK_NODES}-node network (${NETWORK_NODES - 6} nodes seeded in ${fmt(seedSeconds, 0)} s):`,
    `- PATCH active:false answered in ${fmt(answeredMs, 0)} ms; by then the 5 nodes are out of the writer and every peer's next delta;`,
    `- a peer's delta fetched right after: ${fmt(deltaMs, 0)} ms, ${JSON.stringify(delta).length} bytes, naming the 5 removed nodes ${removed >= 5 ? "(all 5)" : `(${removed} of 5)`};`,
    `- the network writer's D1 rows for it: ${writerAfter.rowsRead - writerBefore.rowsRead} read.`,
  ];
  console.log(`\n${lines.join("\n")}\n`);
  await mkdir("bench/results", { recursive: true });
  await writeFile("bench/results/directory.md", `${lines.join("\n")}\n`);
});
