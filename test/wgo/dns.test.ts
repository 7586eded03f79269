// `wgo up` applies the DNS line of the config (servers, then search domains) the way the host resolves
// names, and `wgo down` takes it away: a namespace's own resolv.conf, systemd-resolved with split DNS,
// resolvconf as wg-quick calls it, or a note. Simulated host, fake API; the host files in a temp dir.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runWgo, tempHome } from "./support/cli.ts";
import { enrolLaptop, startDeviceApi } from "./support/device-api.ts";
import type { ResolverOptions } from "./support/fake-resolver.ts";
import { fakeHost } from "./support/fake-system.ts";

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

async function setup(dns: string[], resolver: ResolverOptions = {}, hostOptions: { kernelModule?: boolean } = {}) {
  const api = await startDeviceApi();
  api.state.dns = dns;
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  const host = fakeHost({ ...hostOptions, resolver });
  const etc = join(dirname(home), "etc");
  const env = { WGO_NETNS_ETC: join(etc, "netns"), WGO_RESOLVCONF_ORDER: join(etc, "resolvconf", "interface-order") };
  const wgo = (args: string[], json = true) =>
    runWgo(["--home", home, ...(json ? ["--json"] : []), ...args], { createSystem: host.createSystem, env });
  const resolverCalls = () =>
    host.calls.filter((argv) => /^(resolvectl|resolvconf)$/.test(argv[0]!) || argv.join(" ").includes("command -v resolv"));
  /** Moves the network to a new revision with other DNS, as an admin's change would. */
  const changeDns = (next: string[]) => {
    api.state.revision += 1;
    api.state.dns = next;
  };
  return { api, home, host, etc, env, wgo, resolverCalls, changeDns };
}

describe("wgo up / down: the config's DNS", () => {
  it("in a namespace: writes its resolv.conf (0644, servers and search), keeps the old file across re-applies, restores it on down", async () => {
    const { etc, wgo, changeDns, resolverCalls } = await setup(["10.77.0.53", "10.77.0.54", "corp.example"]);
    const file = join(etc, "netns", "ns1", "resolv.conf");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "nameserver 192.0.2.53\n");

    const up = await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
    expect(up.code, up.stderr).toBe(0);
    expect(up.json[0].dns).toEqual({ servers: ["10.77.0.53", "10.77.0.54"], search: ["corp.example"], via: "netns" });
    expect(readFileSync(file, "utf8")).toBe(
      "# written by wgo for wg7: `wgo down` restores the file that was here before\n" +
        "nameserver 10.77.0.53\nnameserver 10.77.0.54\nsearch corp.example\n",
    );
    expect(statSync(file).mode & 0o777, "every process in the namespace reads it").toBe(0o644);
    expect(resolverCalls(), "the namespace's file is all it takes").toEqual([]);

    changeDns(["10.77.0.55", "corp.example"]);
    await wgo(["config", "--name", "laptop"]);
    const again = await wgo(["up", "--name", "laptop"]);
    expect(again.json[0]).toMatchObject({ action: "synced", dns: { servers: ["10.77.0.55"], via: "netns" } });
    expect(readFileSync(file, "utf8")).toContain("nameserver 10.77.0.55\nsearch corp.example\n");

    const down = await wgo(["down", "--name", "laptop"]);
    expect(down.json[0]).toMatchObject({ action: "removed", dnsRemoved: "netns" });
    expect(readFileSync(file, "utf8"), "the file from before the first up, not wgo's first version").toBe("nameserver 192.0.2.53\n");
  });

  it("in a namespace without a resolv.conf: down removes the file and the directories wgo created", async () => {
    const { etc, wgo } = await setup(["10.77.0.53"]);
    const up = await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"], false);
    expect(up.stdout).toMatch(/, DNS 10\.77\.0\.53 via netns\nreported to the API: the console shows this device as seen\n$/);
    expect(existsSync(join(etc, "netns", "ns1", "resolv.conf"))).toBe(true);
    await wgo(["down", "--name", "laptop"]);
    expect(existsSync(join(etc, "netns")), "/etc/netns did not exist before either").toBe(false);
  });

  it("down leaves a namespace resolv.conf that someone replaced since, and says so", async () => {
    const { etc, wgo } = await setup(["10.77.0.53"]);
    await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
    const file = join(etc, "netns", "ns1", "resolv.conf");
    writeFileSync(file, "nameserver 198.51.100.1\n");
    const down = await wgo(["down", "--name", "laptop"]);
    expect(down.stderr).toBe(`note: ${file} was replaced since wgo wrote it: left as it is\n`);
    expect(readFileSync(file, "utf8")).toBe("nameserver 198.51.100.1\n");
  });

  it("systemd-resolved: the link gets the servers and ~domain (split DNS, no default route); down reverts it before the link goes", async () => {
    const { host, wgo } = await setup(["10.77.0.53", "10.77.0.54", "corp.example"], { resolvectl: true });
    const up = await wgo(["up", "--name", "laptop"], false);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toMatch(
      /, DNS 10\.77\.0\.53, 10\.77\.0\.54 \(search corp\.example\) via systemd-resolved\nreported to the API: the console shows this device as seen\n$/,
    );
    expect(up.stderr).toBe("");
    expect(host.resolver.links.get("wg0")).toEqual({ dns: ["10.77.0.53", "10.77.0.54"], domains: ["~corp.example"], defaultRoute: false });

    const down = await wgo(["down", "--name", "laptop"]);
    expect(down.json[0]).toMatchObject({ action: "removed", dnsRemoved: "systemd-resolved" });
    expect(host.resolver.links.has("wg0")).toBe(false);
    const order = host.calls.map((argv) => argv.join(" "));
    expect(order.indexOf("resolvectl revert wg0")).toBeGreaterThan(-1);
    expect(order.indexOf("resolvectl revert wg0")).toBeLessThan(order.indexOf("ip link del dev wg0"));
  });

  it("resolvconf when resolved is installed but not running: wg-quick's call and stdin, its interface-order prefix, and a note that it has no split DNS", async () => {
    const { host, etc, wgo } = await setup(["10.77.0.53", "corp.example"], { resolvectl: true, resolvedRunning: false, resolvconf: true });
    mkdirSync(join(etc, "resolvconf"), { recursive: true });
    writeFileSync(join(etc, "resolvconf", "interface-order"), "# interface-order(5)\nlo.inet6\nlo.inet*\ntun*\nwg*\n*\n");
    const up = await wgo(["up", "--name", "laptop"]);
    expect(up.json[0].dns).toEqual({ servers: ["10.77.0.53"], search: ["corp.example"], via: "resolvconf" });
    expect(host.calls.map((argv) => argv.join(" "))).toContain("resolvconf -a tun.wg0 -m 0 -x");
    expect(host.resolver.records).toEqual(new Map([["tun.wg0", "nameserver 10.77.0.53\nsearch corp.example\n"]]));
    expect(up.stderr).toBe(
      "note: resolvconf has no split DNS: 10.77.0.53 now come first for every name, and answer only names under corp.example\n",
    );
    await wgo(["down", "--name", "laptop"]);
    expect(host.calls.map((argv) => argv.join(" "))).toContain("resolvconf -d tun.wg0 -f");
    expect(host.resolver.records.size).toBe(0);
  });

  it("neither resolved nor resolvconf: nothing is applied, and the note says what to configure", async () => {
    const { host, wgo } = await setup(["10.77.0.53", "corp.example"]);
    const up = await wgo(["up", "--name", "laptop"]);
    expect(up.code).toBe(0);
    expect(up.json[0].dns).toEqual({ servers: ["10.77.0.53"], search: ["corp.example"], via: "none" });
    expect(up.stderr).toBe(
      "note: DNS 10.77.0.53 was not applied: no systemd-resolved or resolvconf here; send names under corp.example to 10.77.0.53 " +
        "(split DNS: these servers refuse every other name)\n",
    );
    expect(host.calls.filter((argv) => argv[0] === "resolvectl" || argv[0] === "resolvconf")).toEqual([]);
    const down = await wgo(["down", "--name", "laptop"]);
    expect(down.json[0].dnsRemoved).toBe("none");
  });

  it("no DNS line: nothing is probed or touched, and up reports dns null", async () => {
    const { etc, wgo, resolverCalls } = await setup([], { resolvectl: true, resolvconf: true });
    const here = await wgo(["up", "--name", "laptop"]);
    expect(here.json[0]).toMatchObject({ netns: null, dns: null });
    expect((await wgo(["down", "--name", "laptop"])).json[0].dnsRemoved).toBeNull();
    const inNamespace = await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
    expect(inNamespace.json[0]).toMatchObject({ netns: "ns1", dns: null });
    await wgo(["down", "--name", "laptop"]);
    expect(resolverCalls()).toEqual([]);
    expect(existsSync(join(etc, "netns"))).toBe(false);
  });

  it("the wg-quick method leaves DNS to wg-quick and only records it", async () => {
    const { wgo, resolverCalls } = await setup(["10.77.0.53"], { resolvectl: true }, { kernelModule: true });
    const up = await wgo(["up", "--name", "laptop"]);
    expect(up.json[0]).toMatchObject({ method: "wg-quick", dns: { servers: ["10.77.0.53"], search: [], via: "wg-quick" } });
    expect((await wgo(["down", "--name", "laptop"])).json[0].dnsRemoved).toBe("wg-quick");
    expect(resolverCalls()).toEqual([]);
  });
});

describe("heartbeat --apply: DNS follows the config", () => {
  it("re-applies when the servers change, leaves it alone when only peers change, reverts when the DNS line goes", async () => {
    const { api, host, wgo, changeDns } = await setup(["10.77.0.53", "corp.example"], { resolvectl: true });
    await wgo(["up", "--name", "laptop"]);
    const dnsCalls = () => host.calls.filter((argv) => argv[0] === "resolvectl" && argv[1] === "dns").length;
    const beat = () => wgo(["heartbeat", "--name", "laptop", "--once", "--apply"]);

    changeDns(["10.77.0.60", "corp.example"]);
    const changed = await beat();
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.json[0].applied).toMatchObject({ dns: { servers: ["10.77.0.60"], search: ["corp.example"], via: "systemd-resolved" } });
    expect(host.resolver.links.get("wg0")).toMatchObject({ dns: ["10.77.0.60"], domains: ["~corp.example"] });
    expect(dnsCalls()).toBe(2);

    api.state.revision += 1;
    api.state.extraAllowedIps = ["192.168.77.0/24"];
    await wgo(["config", "--name", "laptop"]);
    const resynced = await wgo(["up", "--name", "laptop"]);
    expect(resynced.json[0]).toMatchObject({ action: "synced", dns: { servers: ["10.77.0.60"] } });
    expect(dnsCalls(), "same servers and search: not applied again").toBe(2);

    changeDns([]);
    const removed = await beat();
    expect(removed.json[0].applied.dns).toBeNull();
    expect(host.resolver.links.has("wg0")).toBe(false);
    expect((await wgo(["down", "--name", "laptop"])).json[0].dnsRemoved).toBeNull();
  });
});
