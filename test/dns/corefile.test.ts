import { describe, expect, it } from "vitest";
import { defaultZoneFilePath, renderCorefile } from "../../src/core/dns/corefile";

describe("renderCorefile", () => {
  const path = defaultZoneFilePath("corp.internal");

  it("serves the zone file from one server block for <domain>:53 and nothing else", () => {
    expect(path).toBe("/etc/coredns/zones/corp.internal.zone");
    expect(renderCorefile("corp.internal", { zoneFilePath: path })).toBe(
      [
        "# CoreDNS for the overlay network zone corp.internal. Serves only this zone; other names are REFUSED.",
        "corp.internal:53 {",
        "    file /etc/coredns/zones/corp.internal.zone corp.internal {",
        "        reload 30s",
        "    }",
        "    errors",
        "    log",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("binds to the listen address when one is given, in canonical form", () => {
    expect(renderCorefile("corp.internal", { zoneFilePath: path, listen: "10.0.0.53" })).toContain(
      "corp.internal:53 {\n    bind 10.0.0.53\n    file ",
    );
    expect(renderCorefile("corp.internal", { zoneFilePath: path, listen: "FD00:0::53" })).toContain("    bind fd00::53\n");
  });

  it("has balanced braces and no catch-all root block", () => {
    const text = renderCorefile("corp.internal", { zoneFilePath: path, listen: "10.0.0.53" });
    expect(text.split("{").length).toBe(text.split("}").length);
    expect(text).not.toMatch(/^\.(:\d+)? \{/m);
    expect(text).not.toMatch(/forward|proxy/);
  });

  it("is deterministic and normalises the domain", () => {
    const text = renderCorefile("corp.internal", { zoneFilePath: path });
    expect(renderCorefile("Corp.Internal.", { zoneFilePath: path })).toBe(text);
  });

  it.each([
    ["relative/zone", "must be absolute"],
    ["/etc/coredns/zones/a zone", "must be absolute"],
    ["/etc/coredns/{x}", "must be absolute"],
    ["/etc/coredns/../shadow", "must be absolute"],
    ["/etc/zone\nforward . 8.8.8.8", "must be absolute"],
  ])("refuses the zone file path %j, which would change the config's meaning", (zoneFilePath, message) => {
    expect(() => renderCorefile("corp.internal", { zoneFilePath })).toThrow(message);
  });

  it("refuses a bad listen address or domain", () => {
    expect(() => renderCorefile("corp.internal", { zoneFilePath: path, listen: "0.0.0.0:53" })).toThrow(/listen address/);
    expect(() => renderCorefile("corp internal", { zoneFilePath: path })).toThrow(/not a valid domain/);
  });
});
