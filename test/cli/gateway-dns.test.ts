// The DNS server configuration the gateway agent writes: Knot's, and the server's Corefile made local
// (our zone file, bound to the node's overlay address). Knot itself serves it in test/e2e/gateway.
import { describe, expect, it } from "vitest";
import { defaultZoneFilePath, renderCorefile } from "../../src/services/networks/dns/corefile.ts";

// A computed specifier, as test/cli/support/cli.ts loads the CLI: its .mjs files have no declarations.
const dns: any = await import(/* @vite-ignore */ `../../cli/gateway/${"dns-server.mjs"}`);

describe("the gateway's DNS server configuration", () => {
  it("Knot listens on the node's overlay address only and serves the rendered file as is", () => {
    const conf = dns.knotConfig("/var/lib/wgo-gateway/nodes/n1/dns", "10.60.0.1", "lab.internal");
    expect(conf).toContain("    listen: 10.60.0.1@53\n");
    expect(conf).toContain("  - domain: lab.internal\n");
    expect(conf).toMatch(/zonefile-sync: -1\n\s+zonefile-load: whole\n\s+journal-content: none/);
    expect(conf).not.toMatch(/listen: 0\.0\.0\.0|listen: ::/);
  });

  it("the server's Corefile is pointed at the agent's zone file and bound to the node's address", () => {
    const server = renderCorefile("lab.internal", { zoneFilePath: defaultZoneFilePath("lab.internal") });
    const local = dns.localCorefile(server, "/var/lib/wgo-gateway/nodes/n1/dns/zone", "10.60.0.1");
    expect(local).toBe(renderCorefile("lab.internal", { zoneFilePath: "/var/lib/wgo-gateway/nodes/n1/dns/zone", listen: "10.60.0.1" }));
  });

  it("refuses a Corefile without the zone's server block", () => {
    expect(() => dns.localCorefile("# nothing\n", "/z", "10.0.0.1")).toThrow(/no `<domain>:53 \{` block/);
  });

  it("refuses a domain or address from the server that would add lines to the configuration", async () => {
    const sys = { run: async () => ({ code: 0, stdout: "", stderr: "" }) };
    const zone = { dir: "/nonexistent", kind: "knot", zonefile: "" };
    await expect(dns.serveZone(sys, { ...zone, address: "10.0.0.1", domain: "lab.internal\nzone:" })).rejects.toThrow(
      /is not a domain name/,
    );
    await expect(dns.serveZone(sys, { ...zone, address: "10.0.0.1@53\nx", domain: "lab.internal" })).rejects.toThrow(
      /is not an IP address/,
    );
  });
});
