// The real thing behind the namespace branch of wgo's resolver: the file it writes under /etc/netns is
// what a process started with `ip netns exec` reads as /etc/resolv.conf. Needs root and `ip netns`.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";

const ip = (...args: string[]) => spawnSync("ip", args, { encoding: "utf8" });
const canUseNamespaces = process.getuid?.() === 0 && ip("netns", "list").status === 0;

let namespace: string | null = null;
afterEach(() => {
  if (!namespace) return;
  ip("netns", "del", namespace);
  rmSync(`/etc/netns/${namespace}`, { recursive: true, force: true }); // only if the test failed half-way
  namespace = null;
});

describe.skipIf(!canUseNamespaces)("wgo's resolver in a real network namespace", () => {
  it("the namespace's processes read the servers and search domain wgo wrote, and down takes them away", async () => {
    namespace = `wgodns${randomBytes(3).toString("hex")}`;
    expect(ip("netns", "add", namespace).status).toBe(0);
    const hadNetnsDir = existsSync("/etc/netns");
    const paths = cli.resolver.resolverPaths({});
    const sys = cli.system.createSystem({ netns: namespace, env: process.env });

    const { record } = await cli.resolver.applyDns({
      sys,
      ifname: "wg0",
      netns: namespace,
      servers: ["10.77.0.53", "fd00:77::53"],
      search: ["corp.example"],
      previous: null,
      paths,
    });
    expect(record).toMatchObject({ via: "netns", file: `/etc/netns/${namespace}/resolv.conf`, previous: null });
    const seen = ip("netns", "exec", namespace, "cat", "/etc/resolv.conf");
    expect(seen.status, seen.stderr).toBe(0);
    expect(seen.stdout).toBe(readFileSync(record.file, "utf8"));
    expect(seen.stdout).toContain("nameserver 10.77.0.53\nnameserver fd00:77::53\nsearch corp.example\n");

    expect(await cli.resolver.removeDns({ sys, record })).toEqual([]);
    expect(existsSync(`/etc/netns/${namespace}`)).toBe(false);
    expect(existsSync("/etc/netns"), "/etc/netns stays exactly when it was there before").toBe(hadNetnsDir);
    expect(ip("netns", "exec", namespace, "cat", "/etc/resolv.conf").stdout).not.toContain("10.77.0.53");
  });
});
