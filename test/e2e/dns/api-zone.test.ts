// Issue 4's proof through the API: records created over HTTP, the zone file the Worker serves,
// accepted by named-checkzone and answered by a real DNS server (Knot) exactly as the records say.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DnsRecord } from "../../../src/services/networks/dns";
import { api, login, type ApiClient } from "../support/api-client.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { checkZone, missingDnsTools, startKnot, type KnotServer } from "./dns-server";
import { findServingMismatches } from "./served-records";

const DOMAIN = "office.internal";
const RECORDS = [
  { name: "@", type: "TXT", value: "v=spf1 -all" },
  { name: "db", type: "A", value: "10.70.0.40" },
  { name: "db", type: "A", value: "10.70.0.41", ttl: 60 },
  { name: "v6", type: "AAAA", value: "fd70::40" },
  { name: "www", type: "CNAME", value: "db" },
  { name: "note", type: "TXT", value: `say "hello" \\ ${"x".repeat(300)}` },
];

const missing = missingDnsTools();
if (missing.length > 0) console.warn(`\n!!! SKIPPING the DNS API e2e: ${missing.join(", ")} not installed !!!\n`);

describe.skipIf(missing.length > 0)("the served zone file on a real DNS server", () => {
  let server: WorkerServer;
  let client: ApiClient;
  let knot: KnotServer | undefined;
  let networkId: string;

  beforeAll(async () => {
    server = await startWorker();
    client = api(server.baseUrl, await login(server.baseUrl, server.admin));
    const group = (await client.post("/groups", { name: "dns" })).body;
    networkId = (await client.post("/networks", { groupId: group.id, name: "office", cidr: "10.70.0.0/24", dnsDomain: DOMAIN })).body.id;
    for (const record of RECORDS) expect((await client.post(`/networks/${networkId}/dns/records`, record)).status).toBe(201);
    const node = await client.post("/nodes", { networkId, name: "laptop", publicKey: "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=" });
    expect(node.status).toBe(201);
  });
  afterAll(async () => {
    await knot?.stop();
    await server?.stop();
  });

  it("passes named-checkzone and Knot answers A, AAAA, CNAME, TXT and node names as stored", async () => {
    const zone = await client.get(`/networks/${networkId}/dns/zonefile`);
    expect(zone.status).toBe(200);
    const check = await checkZone(DOMAIN, zone.text);
    expect(check.ok, check.output).toBe(true);
    knot = await startKnot(zone.text, DOMAIN);
    const stored = (await client.get(`/networks/${networkId}/dns/records`)).body.items as DnsRecord[];
    const expected: DnsRecord[] = [...stored, { name: "laptop", type: "A", value: "10.70.0.1", ttl: 300 }];
    expect(await findServingMismatches(knot, DOMAIN, expected)).toEqual([]);
    expect(await knot.query("laptop", "A")).toEqual(["10.70.0.1"]);
    expect(await knot.query(`www.${DOMAIN}.`, "CNAME")).toEqual([`db.${DOMAIN}.`]);
  });

  it("names at the limits (a 242-character domain, 253-character names) still pass named-checkzone; one more character is refused", async () => {
    const longest = ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(50)].join(".");
    const group = (await client.post("/groups", { name: "dns-limits" })).body;
    const id = (await client.post("/networks", { groupId: group.id, name: "limits", cidr: "10.71.0.0/24", dnsDomain: longest })).body.id;
    expect((await client.post("/nodes", { networkId: id, name: "n".repeat(10), publicKey: "yTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=" })).status).toBe(201);
    expect((await client.post("/nodes", { networkId: id, name: "n".repeat(11), publicKey: "zTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=" })).status).toBe(422);
    expect((await client.post(`/networks/${id}/dns/records`, { name: "t".repeat(10), type: "CNAME", value: "r".repeat(10) })).status).toBe(201);
    expect((await client.post(`/networks/${id}/dns/records`, { name: "ns", type: "A", value: "10.71.0.9" })).status).toBe(422);
    const zone = await client.get(`/networks/${id}/dns/zonefile`);
    const check = await checkZone(longest, zone.text);
    expect(check.ok, check.output).toBe(true);
  });

  it("the Corefile names the zone, the file plugin with that zone file, errors and log", async () => {
    const corefile = (await client.get(`/networks/${networkId}/dns/corefile`)).text;
    expect(corefile).toMatch(new RegExp(`^${DOMAIN.replace(".", "\\.")}:53 \\{$`, "m"));
    expect(corefile).toContain(`    file /etc/coredns/zones/${DOMAIN}.zone ${DOMAIN} {`);
    expect(corefile).toMatch(/^ {4}errors$/m);
    expect(corefile).toMatch(/^ {4}log$/m);
  });
});
