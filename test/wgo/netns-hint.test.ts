// Running `ip netns exec NS wgo up …` with the API out of the namespace's reach: the failure points to
// --netns (wgo on the host, the interface in the namespace), which is what the operator meant.
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";

const { NetworkError } = cli.errors;
const { describeFailure } = cli.failures;
const { namedNetnsHere } = cli.netnsHere;

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A stand-in for /proc/self/ns/net and /run/netns: a named entry is the same inode as `self` (a hard link). */
function namespaces(names: string[], here?: string) {
  const root = mkdtempSync(join(tmpdir(), "wgo-netns-"));
  dirs.push(root);
  const named = join(root, "netns");
  mkdirSync(named);
  const self = join(root, "self");
  writeFileSync(self, "");
  for (const name of names) {
    if (name === here) linkSync(self, join(named, name));
    else writeFileSync(join(named, name), "");
  }
  return { self, named };
}

describe("wgo inside `ip netns exec`", () => {
  it("tells which named namespace it runs in, and none outside one", () => {
    expect(namedNetnsHere(namespaces(["blue", "lab"], "lab"))).toBe("lab");
    expect(namedNetnsHere(namespaces(["blue", "lab"]))).toBeNull();
    expect(namedNetnsHere({ self: "/nonexistent/self", named: "/nonexistent/netns" })).toBeNull();
  });

  it("an unreachable API points to --netns when it runs inside a namespace, and not otherwise", () => {
    const error = new NetworkError("http://10.0.0.1:8787", "no answer within 10 s");
    const inside = describeFailure(error, { netns: () => "lab" });
    expect(inside.hint).toMatch(/check the network path to the host \(firewall, proxy, VPN\)/);
    expect(inside.hint).toMatch(/inside network namespace "lab" \(ip netns exec\).*run wgo on the host with --netns lab instead$/);
    const outside = describeFailure(error, { netns: () => null });
    expect(outside.hint).not.toContain("--netns");
  });
});
