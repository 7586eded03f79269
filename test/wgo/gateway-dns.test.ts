// The DNS server configuration the gateway agent writes: Knot's, and CoreDNS's (the server's Corefile, made
// on the gateway with its zone file and bound to the node's overlay address). Knot itself serves it in test/e2e/gateway.
import { describe, expect, it } from "vitest";
import { renderCorefile } from "../../src/core/dns/corefile.ts";

// A computed specifier, as test/wgo/support/cli.ts loads the CLI: its .mjs files have no declarations.
const dns: any = await import(/* @vite-ignore */ `../../cli/gateway/${"dns-server.mjs"}`);

describe("the gateway's DNS server configuration", () => {
  it("Knot listens on the node's overlay address only and serves the rendered file as is", () => {
    const conf = dns.knotConfig("/var/lib/wgo-gateway/nodes/n1/dns", "10.60.0.1", "lab.internal");
    expect(conf).toContain("    listen: 10.60.0.1@53\n");
    expect(conf).toContain("  - domain: lab.internal\n");
    expect(conf).toMatch(/zonefile-sync: -1\n\s+zonefile-load: whole\n\s+journal-content: none/);
    expect(conf).not.toMatch(/listen: 0\.0\.0\.0|listen: ::/);
  });

  it("the agent's Corefile is the server's, with the agent's zone file and bound to the node's address", () => {
    for (const [domain, address] of [
      ["lab.internal", "10.60.0.1"],
      ["Corp.Example", "fd00::1"],
    ] as const) {
      const zonePath = "/var/lib/wgo-gateway/nodes/n1/dns/zone";
      expect(dns.localCorefile(domain, zonePath, address)).toBe(renderCorefile(domain, { zoneFilePath: zonePath, listen: address }));
    }
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
