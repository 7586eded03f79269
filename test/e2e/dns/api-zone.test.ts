// Issue 4's proof through the API: records created over HTTP, the zone file the Worker serves,
// accepted by named-checkzone and answered by a real DNS server (Knot) exactly as the records say.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DnsRecord } from "../../../src/core/dns";
import { asText, type Schema } from "../../../client/index.ts";
import { byId, expectAnswer, login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { checkZone, missingDnsTools, startKnot, type KnotServer } from "./dns-server";
import { findServingMismatches } from "./served-records";

const DOMAIN = "office.internal";
const RECORDS: Schema<"DnsRecordInput">[] = [
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
  let client: TypedApiClient;
  let knot: KnotServer | undefined;
  let networkId: string;

  beforeAll(async () => {
    server = await startWorker();
    client = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    const group = expectAnswer(await client.POST("/api/v1/groups", { body: { name: "dns" } }), 201, "create group");
    networkId = expectAnswer(
      await client.POST("/api/v1/networks", {
        body: { groupId: group.id, name: "office", cidr: "10.70.0.0/24", dnsDomain: DOMAIN },
      }),
      201,
      "create network",
    ).id;
    for (const record of RECORDS) {
      expectAnswer(
        await client.POST("/api/v1/networks/{id}/dns/records", { ...byId(networkId), body: record }),
        201,
        `create ${record.name}`,
      );
    }
    expectAnswer(
      await client.POST("/api/v1/nodes", {
        body: { networkId, name: "laptop", publicKey: "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=" },
      }),
      201,
      "create node",
    );
  });
  afterAll(async () => {
    await knot?.stop();
    await server?.stop();
  });

  it("passes named-checkzone and Knot answers A, AAAA, CNAME, TXT and node names as stored", async () => {
    const zone = expectAnswer(await client.GET("/api/v1/networks/{id}/dns/zonefile", { ...byId(networkId), ...asText }), 200, "zone file");
    const check = await checkZone(DOMAIN, zone);
    expect(check.ok, check.output).toBe(true);
    knot = await startKnot(zone, DOMAIN);
    const stored = expectAnswer(await client.GET("/api/v1/networks/{id}/dns/records", byId(networkId)), 200, "records")
      .items as DnsRecord[];
    const expected: DnsRecord[] = [...stored, { name: "laptop", type: "A", value: "10.70.0.1", ttl: 300 }];
    expect(await findServingMismatches(knot, DOMAIN, expected)).toEqual([]);
    expect(await knot.query("laptop", "A")).toEqual(["10.70.0.1"]);
    expect(await knot.query(`www.${DOMAIN}.`, "CNAME")).toEqual([`db.${DOMAIN}.`]);
  });

  it("names at the limits (a 242-character domain, 253-character names) still pass named-checkzone; one more character is refused", async () => {
    const longest = ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(50)].join(".");
    const group = expectAnswer(await client.POST("/api/v1/groups", { body: { name: "dns-limits" } }), 201, "create group");
    const id = expectAnswer(
      await client.POST("/api/v1/networks", {
        body: { groupId: group.id, name: "limits", cidr: "10.71.0.0/24", dnsDomain: longest },
      }),
      201,
      "create network",
    ).id;
    const node = (name: string, publicKey: string) => client.POST("/api/v1/nodes", { body: { networkId: id, name, publicKey } });
    expectAnswer(await node("n".repeat(10), "yTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg="), 201, "node at the limit");
    const tooLong = await node("n".repeat(11), "zTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=");
    expect(tooLong.response.status).toBe(422);
    expect((tooLong.error as { error: { code: string } }).error.code).toBe("VALIDATION_ERROR");
    const record = (body: Schema<"DnsRecordInput">) => client.POST("/api/v1/networks/{id}/dns/records", { ...byId(id), body });
    expectAnswer(await record({ name: "t".repeat(10), type: "CNAME", value: "r".repeat(10) }), 201, "CNAME at the limit");
    const reserved = await record({ name: "ns", type: "A", value: "10.71.0.9" });
    expect(reserved.response.status).toBe(422);
    expect((reserved.error as { error: { code: string } }).error.code).toBe("VALIDATION_ERROR");
    const zone = expectAnswer(await client.GET("/api/v1/networks/{id}/dns/zonefile", { ...byId(id), ...asText }), 200, "zone file");
    const check = await checkZone(longest, zone);
    expect(check.ok, check.output).toBe(true);
  });

  it("the Corefile names the zone, the file plugin with that zone file, errors and log", async () => {
    const corefile = expectAnswer(
      await client.GET("/api/v1/networks/{id}/dns/corefile", { ...byId(networkId), ...asText }),
      200,
      "Corefile",
    );
    expect(corefile).toMatch(new RegExp(`^${DOMAIN.replace(".", "\\.")}:53 \\{$`, "m"));
    expect(corefile).toContain(`    file /etc/coredns/zones/${DOMAIN}.zone ${DOMAIN} {`);
    expect(corefile).toMatch(/^ {4}errors$/m);
    expect(corefile).toMatch(/^ {4}log$/m);
  });
});
