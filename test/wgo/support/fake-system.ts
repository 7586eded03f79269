// biome-ignore-all lint/suspicious/noAssignInExpressions: the fake shell dispatches on `if ((m = pattern.exec(command)))`, one line a command
// A simulated host for the interface code: links, addresses (each with its connected route), routes
// per table, rules, sysctls and the WireGuard config, driven by the same argv wgo sends to ip / wg /
// wireguard-go. Unit tests then assert on the resulting state, not on a script of expected calls.
import { readFileSync } from "node:fs";
import { cli } from "./cli.ts";
import { type FakeResolver, fakeResolver, type ResolverOptions, resolverCommand } from "./fake-resolver.ts";
import { procNetUdp, wgRefuses } from "./fake-udp.ts";

export interface WgPeer {
  allowedIps: string[];
  endpoint: string | null;
  keepalive: number | null;
}
interface Link {
  /** The namespace it is in ("" for the host's own): `ip link set … netns` moves it. */
  ns?: string;
  up: boolean;
  mtu: number | null;
  addresses: string[];
  conf: string;
  /** WireGuard's peers by public key, as setconf/syncconf/wg-quick and `wg set … peer` leave them. */
  peers: Map<string, WgPeer>;
  fwmark: number | null;
  dump: string;
}
interface Route {
  dst: string;
  dev: string;
  via?: string;
  proto: "kernel" | "boot";
  table: string;
}

/** A long-lived command a test can watch (the gateway agent's `ping -O` probes) and, in manual mode, drive. */
export interface FakeStream {
  argv: string[];
  ns: string;
  running: boolean;
  /** Hands the reader one line of output, as the real command would print it. */
  print(line: string): void;
  /** Ends it on its own (the real ping exits 2 on "connect: Network is unreachable"). */
  exit(code: number, stderr?: string): void;
}

export interface FakeHost {
  links: Map<string, Link>;
  /** Every long-lived command started, running or ended. */
  streams: FakeStream[];
  /** Targets whose echoes go unanswered (a test may change it while pings run). */
  unreachable: Set<string>;
  routes: Route[];
  rules: string[];
  sysctls: string[];
  /** Each sysctl with the namespace it was set in ("" for the host's own). */
  sysctlsIn: Array<{ ns: string; setting: string }>;
  /** UDP ports other programs hold, by namespace ("" for the host's own): /proc/net/udp lists them, WireGuard cannot bind them. */
  udpPorts: Map<string, Set<number>>;
  /** Network namespaces `ip netns add` made (the host's own is not listed). */
  namespaces: Set<string>;
  /** The nftables ruleset each namespace was last given, by table name ("ns table"). */
  nftTables: Map<string, string>;
  calls: string[][];
  /** Which of setconf / syncconf configured WireGuard, in order. */
  wgVerbs: string[];
  /** resolvectl / resolvconf, as the test installed them. */
  resolver: FakeResolver;
  createSystem: (options?: { netns?: string }) => any;
  routesOf(ifname: string, table?: string): string[];
}

/** The [Peer] sections of a config file, as WireGuard holds them. */
export function peersOf(conf: string): Map<string, WgPeer> {
  const peers = new Map<string, WgPeer>();
  let current: WgPeer | null = null;
  for (const line of conf.split("\n").map((l) => l.replace(/#.*$/, "").trim())) {
    if (line === "[Peer]") current = { allowedIps: [], endpoint: null, keepalive: null };
    const [key, value = ""] = line.split(/\s*=\s*(.*)/);
    if (!current || !key) continue;
    if (key === "PublicKey") peers.set(value, current);
    else if (key === "AllowedIPs") current.allowedIps = value.split(/,\s*/).filter(Boolean);
    else if (key === "Endpoint") current.endpoint = value;
    else if (key === "PersistentKeepalive") current.keepalive = Number(value);
  }
  return peers;
}

/** `wg set IF peer KEY (remove | allowed-ips L [endpoint E] [persistent-keepalive N|off])`, as WireGuard does it. */
function setPeer(link: Link, args: string[]): void {
  const [key, ...rest] = args;
  if (rest[0] === "remove") {
    link.peers.delete(key!);
    return;
  }
  const peer = link.peers.get(key!) ?? { allowedIps: [], endpoint: null, keepalive: null };
  for (let i = 0; i < rest.length; i += 2) {
    const value = rest[i + 1]!;
    if (rest[i] === "allowed-ips") {
      peer.allowedIps = value.split(",").filter(Boolean);
      // An allowed IP belongs to one peer: giving it to this one takes it from any other.
      for (const [other, held] of link.peers) {
        if (other !== key) held.allowedIps = held.allowedIps.filter((ip) => !peer.allowedIps.includes(ip));
      }
    } else if (rest[i] === "endpoint") peer.endpoint = value;
    else if (rest[i] === "persistent-keepalive") peer.keepalive = value === "off" ? null : Number(value);
    else throw new Error(`fake wg set: unexpected ${rest[i]}`);
  }
  link.peers.set(key!, peer);
}

const ok = (stdout = "") => ({ code: 0, stdout, stderr: "" });
const fail = (stderr: string) => ({ code: 2, stdout: "", stderr });
const family = (prefix: string) => (prefix.includes(":") ? "-6" : "-4");
/** `ip -j route` prints host routes without their length and the /0 as "default". */
const ipSpelling = (prefix: string) => (prefix.endsWith("/0") ? "default" : prefix.replace(/\/(32|128)$/, ""));

export function fakeHost(
  options: {
    kernelModule?: boolean;
    refuseWgConfig?: boolean;
    resolver?: ResolverOptions;
    unreachable?: string[];
    /** "auto" (default): each ping prints a line an interval (a reply unless its target is unreachable); "manual": the test prints. */
    pings?: "auto" | "manual";
    /** Commands that fail on this host, with the stderr the real tool prints (EADDRINUSE, EPERM). */
    failing?: Array<[RegExp, string]>;
    /** Namespaces that exist before wgo runs (default ["ns1"]); others come from `ip netns add`. */
    namespaces?: string[];
  } = {},
): FakeHost {
  const host: FakeHost = {
    links: new Map(),
    streams: [],
    unreachable: new Set(options.unreachable ?? []),
    routes: [],
    rules: [],
    sysctls: [],
    sysctlsIn: [],
    udpPorts: new Map(),
    namespaces: new Set(),
    nftTables: new Map(),
    calls: [],
    wgVerbs: [],
    resolver: fakeResolver(options.resolver),
    createSystem: (opts = {}) => {
      const run = async (argv: string[], runOptions: { input?: string } = {}) => {
        host.calls.push(opts.netns ? ["ip", "netns", "exec", opts.netns, ...argv] : argv);
        if (opts.netns && !host.namespaces.has(opts.netns) && !preexisting.has(opts.netns)) {
          return fail(`Cannot open network namespace "${opts.netns}": No such file or directory`);
        }
        return handle(argv, runOptions.input, opts.netns ?? "");
      };
      return {
        netns: opts.netns,
        run,
        check: async (argv: string[], runOptions: { input?: string } = {}) => {
          const result = await run(argv, runOptions);
          if (result.code !== 0) throw new cli.errors.OperationError(`${argv.join(" ")} failed: ${result.stderr}`);
          return result.stdout;
        },
        streamLines: (argv: string[], onLine: (line: string) => void) => {
          host.calls.push(opts.netns ? ["ip", "netns", "exec", opts.netns, ...argv] : argv);
          return stream(argv, opts.netns ?? "", onLine);
        },
      };
    },
    routesOf: (ifname, table = "main") =>
      host.routes
        .filter((r) => r.dev === ifname && r.table === table && r.proto === "boot")
        .map((r) => r.dst)
        .sort(),
  };

  // Namespaces the tests name with --netns exist before wgo runs (the lab's own "host").
  const preexisting = new Set(options.namespaces ?? ["ns1"]);
  const newLink = (ns = ""): Link => ({ ns, up: false, mtu: null, addresses: [], conf: "", peers: new Map(), fwmark: null, dump: "" });

  function link(name: string): Link {
    const found = host.links.get(name);
    if (!found) throw new Error(`fake: no link ${name}`);
    return found;
  }

  /** A link visible from namespace `ns`; a link without a namespace (made by a test) is everywhere. */
  const visible = (name: string, ns: string) => {
    const found = host.links.get(name);
    return found !== undefined && (found.ns === undefined || found.ns === ns);
  };

  function handle(argv: string[], input: string | undefined, ns: string): { code: number; stdout: string; stderr: string } {
    const command = argv.join(" ");
    let m: RegExpMatchArray | null;
    for (const [pattern, stderr] of options.failing ?? []) if (pattern.test(command)) return { code: 1, stdout: "", stderr };
    if ((m = /^ip link show dev (\S+)$/.exec(command))) return visible(m[1]!, ns) ? ok(`${m[1]}: <POINTOPOINT>`) : fail("does not exist");
    if ((m = /^ip link add (\S+) type wireguard$/.exec(command))) {
      if (!options.kernelModule) return fail("Unknown device type");
      host.links.set(m[1]!, newLink(ns));
      return ok();
    }
    const netnsAnswer = namespaceCommand(command, ns);
    if (netnsAnswer) return netnsAnswer;
    if (command === "sh -c command -v wg-quick") return options.kernelModule ? ok("/usr/bin/wg-quick") : fail("");
    // Any other tool looked up (a DNS server for the gateway agent): this host has none.
    if (/^sh -c .*command -v (coredns|knotd|knotc)$/.test(command)) return fail("");
    if ((m = /^wireguard-go (\S+)$/.exec(command))) {
      host.links.set(m[1]!, newLink(ns));
      return ok();
    }
    if ((m = /^wg (setconf|syncconf) (\S+) (\S+)$/.exec(command))) {
      if (options.refuseWgConfig) return fail("Line unrecognized: `Bogus=1'");
      const conf = readFileSync(m[3]!, "utf8");
      const refused = wgRefuses(host, m[2]!, conf, ns);
      if (refused) return fail(refused);
      link(m[2]!).conf = conf;
      link(m[2]!).peers = peersOf(link(m[2]!).conf);
      host.wgVerbs.push(m[1]!);
      return ok();
    }
    if (command === "cat /proc/net/udp /proc/net/udp6") return ok(procNetUdp(host, ns));
    if (command === "ip -j address show") {
      const all = [...host.links]
        .filter(([ifname]) => visible(ifname, ns))
        .map(([ifname, l]) => ({
          ifname,
          flags: l.up ? ["UP", "LOWER_UP"] : [],
          addr_info: l.addresses.map((a) => ({ local: a.split("/")[0], prefixlen: Number(a.split("/")[1]), scope: "global" })),
        }));
      return ok(JSON.stringify(all));
    }
    if ((m = /^ip -j address show dev (\S+)$/.exec(command))) {
      const infos = link(m[1]!).addresses.map((a) => ({ local: a.split("/")[0], prefixlen: Number(a.split("/")[1]), scope: "global" }));
      return ok(JSON.stringify([{ ifname: m[1], addr_info: [{ local: "fe80::1", prefixlen: 64, scope: "link" }, ...infos] }]));
    }
    if ((m = /^ip address (add|del) (\S+) dev (\S+)$/.exec(command))) {
      const target = link(m[3]!);
      const connected = cli.cidr.canonicalPrefix(m[2]!);
      if (m[1] === "add") {
        target.addresses.push(m[2]!);
        host.routes.push({ dst: connected, dev: m[3]!, proto: "kernel", table: "main" });
      } else {
        target.addresses = target.addresses.filter((a) => a !== m![2]);
        host.routes = host.routes.filter((r) => !(r.dev === m![3] && r.proto === "kernel" && r.dst === connected));
      }
      return ok();
    }
    if ((m = /^ip link set dev (\S+) (up|mtu (\d+))$/.exec(command))) {
      if (m[3]) link(m[1]!).mtu = Number(m[3]);
      else link(m[1]!).up = true;
      return ok();
    }
    if ((m = /^ip -j (-4|-6) route show dev (\S+)( proto kernel)?( table (\S+))?$/.exec(command))) {
      const listed = host.routes.filter(
        (r) => r.dev === m![2] && family(r.dst) === m![1] && r.table === (m![5] ?? "main") && (!m![3] || r.proto === "kernel"),
      );
      return ok(JSON.stringify(listed.map((r) => ({ dst: ipSpelling(r.dst), dev: r.dev, protocol: r.proto }))));
    }
    if ((m = /^ip (-4|-6) route replace (\S+) via (\S+) dev (\S+)$/.exec(command))) {
      host.routes = host.routes.filter((r) => !(r.dst === m![2] && r.dev === m![4] && r.table === "main"));
      host.routes.push({ dst: m[2]!, dev: m[4]!, via: m[3]!, proto: "boot", table: "main" });
      return ok();
    }
    if ((m = /^ip (-4|-6) route (add|del) (\S+) dev (\S+)(?: table (\S+))?$/.exec(command))) {
      const route: Route = { dst: m[3]!, dev: m[4]!, proto: "boot", table: m[5] ?? "main" };
      const same = (r: Route) => r.dst === route.dst && r.dev === route.dev && r.table === route.table;
      if (m[2] === "add") {
        if (host.routes.some(same)) return fail("RTNETLINK answers: File exists");
        host.routes.push(route);
      } else host.routes = host.routes.filter((r) => !same(r));
      return ok();
    }
    if ((m = /^ip (-4|-6) route show default dev (\S+) table (\S+)$/.exec(command))) {
      const found = host.routes.some((r) => r.dev === m![2] && r.table === m![3] && r.dst.endsWith("/0") && family(r.dst) === m![1]);
      return ok(found ? `default dev ${m[2]} scope link` : "");
    }
    if ((m = /^ip (-4|-6) route show table (\S+)$/.exec(command))) {
      return ok(
        host.routes
          .filter((r) => r.table === m![2] && family(r.dst) === m![1])
          .map((r) => r.dst)
          .join("\n"),
      );
    }
    if ((m = /^wg show (\S+) fwmark$/.exec(command))) {
      const mark = link(m[1]!).fwmark;
      return ok(mark === null ? "off\n" : `0x${mark.toString(16)}\n`);
    }
    if (argv[0] === "wg" && argv[1] === "set" && argv[3] === "peer") {
      setPeer(link(argv[2]!), argv.slice(4));
      return ok();
    }
    if ((m = /^wg set (\S+) fwmark (\d+)$/.exec(command))) {
      link(m[1]!).fwmark = Number(m[2]);
      return ok();
    }
    if ((m = /^ip (-4|-6) rule (add|del) (.+)$/.exec(command))) {
      const rule = `${m[1]} ${m[3]}`;
      if (m[2] === "add") host.rules.push(rule);
      else if (host.rules.includes(rule)) host.rules.splice(host.rules.indexOf(rule), 1);
      else return fail("RTNETLINK answers: No such file or directory");
      return ok();
    }
    if ((m = /^sysctl -q -w (\S+)$/.exec(command))) {
      host.sysctls.push(m[1]!);
      host.sysctlsIn.push({ ns, setting: m[1]! });
      return ok();
    }
    if ((m = /^wg show (\S+) dump$/.exec(command))) return ok(link(m[1]!).dump);
    if ((m = /^wg-quick (up|down) (\S+)\/([^/]+)\.conf$/.exec(command))) {
      if (m[1] === "up") {
        const conf = readFileSync(`${m[2]}/${m[3]}.conf`, "utf8");
        const refused = wgRefuses(host, m[3]!, conf, ns); // wg-quick hands the file to `wg setconf`
        if (refused) return fail(refused);
        host.links.set(m[3]!, { up: true, mtu: null, addresses: [], conf, peers: peersOf(conf), fwmark: null, dump: "" });
      } else host.links.delete(m[3]!);
      host.wgVerbs.push(`wg-quick ${m[1]}`);
      return ok();
    }
    // One echo request (the gateway agent's forwarding probe): answered unless the test made it unreachable.
    if ((m = /^ping -c 1 -W 1 -q (\S+)$/.exec(command))) return host.unreachable.has(m[1]!) ? fail("100% packet loss") : ok();
    if ((m = /^test -e \/run\/wireguard\/(\S+)\.sock$/.exec(command))) return host.links.has(m[1]!) ? ok() : fail("");
    // A systemd that takes every unit (`wgo up --service`, install-service): what was asked is in host.calls.
    if (/^systemctl (daemon-reload|enable --now \S+\.service)$/.test(command)) return ok();
    const resolver = resolverCommand(host.resolver, argv, input, (name) => host.links.has(name));
    if (resolver) return resolver;
    throw new Error(`fake host: unexpected command: ${command}`);
  }

  /** ip netns, veth pairs, moving links between namespaces, nft: what the gateway agent's routing domains use. */
  function namespaceCommand(command: string, ns: string) {
    let m: RegExpMatchArray | null;
    if (command === "ip netns list") return ok([...host.namespaces].map((name) => `${name} (id: 1)\n`).join(""));
    if ((m = /^ip netns (add|del) (\S+)$/.exec(command))) {
      if (m[1] === "add") host.namespaces.add(m[2]!);
      else {
        host.namespaces.delete(m[2]!);
        for (const [name, l] of host.links) if (l.ns === m[2]) dropLink(name);
        for (const key of [...host.nftTables.keys()]) if (key.startsWith(`${m[2]} `)) host.nftTables.delete(key);
      }
      return ok();
    }
    if (command === "ip link set dev lo up") return ok();
    if ((m = /^ip link add (\S+) type veth peer name (\S+) netns (\S+)$/.exec(command))) {
      if (host.links.has(m[1]!)) return fail("RTNETLINK answers: File exists");
      host.links.set(m[1]!, newLink(ns));
      host.links.set(m[2]!, newLink(m[3]!));
      peers.set(m[1]!, m[2]!).set(m[2]!, m[1]!);
      return ok();
    }
    if ((m = /^ip link set dev (\S+) netns (\S+)$/.exec(command))) {
      if (!visible(m[1]!, ns)) return fail(`Cannot find device "${m[1]}"`);
      link(m[1]!).ns = m[2]!;
      return ok();
    }
    if ((m = /^ip link del dev (\S+)$/.exec(command))) {
      if (!visible(m[1]!, ns)) return fail(`Cannot find device "${m[1]}"`);
      dropLink(m[1]!);
      return ok();
    }
    if ((m = /^nft -f (\S+)$/.exec(command))) {
      // The agent's scripts replace one table: "table inet T {}", "delete table inet T", then its rules.
      const text = readFileSync(m[1]!, "utf8");
      const table = /^delete table inet (\S+)$/m.exec(text)?.[1];
      if (!table) return fail(`fake nft: not a table replacement: ${text.slice(0, 80)}`);
      host.nftTables.set(`${ns} ${table}`, text.slice(text.indexOf("\n", text.indexOf("delete table")) + 1));
      return ok();
    }
    if ((m = /^nft list table inet (\S+)$/.exec(command))) {
      const text = host.nftTables.get(`${ns} ${m[1]}`);
      return text === undefined ? fail("Error: No such file or directory") : ok(text);
    }
    if ((m = /^nft delete table inet (\S+)$/.exec(command))) {
      return host.nftTables.delete(`${ns} ${m[1]}`) ? ok() : fail("No such file or directory");
    }
    return null;
  }
  /** `ping -O -n -i S TARGET` streaming: replies or "no answer yet" lines each interval, or whatever the test prints. */
  function stream(argv: string[], ns: string, onLine: (line: string) => void) {
    const m = /^ping -O -n -i (\d+(?:\.\d+)?) (\S+)$/.exec(argv.join(" "));
    if (!m) throw new Error(`fake host: unexpected streaming command: ${argv.join(" ")}`);
    let finish!: (result: { code: number; stderr: string }) => void;
    const exited = new Promise<{ code: number; stderr: string }>((resolve) => (finish = resolve));
    let timer: NodeJS.Timeout | undefined;
    const fake: FakeStream = {
      argv,
      ns,
      running: true,
      print: (line) => fake.running && onLine(line),
      exit(code, stderr = "") {
        if (!fake.running) return;
        fake.running = false;
        clearInterval(timer);
        finish({ code, stderr });
      },
    };
    host.streams.push(fake);
    if ((options.pings ?? "auto") === "auto") {
      let seq = 0;
      timer = setInterval(() => {
        seq += 1;
        const target = m[2]!;
        fake.print(
          host.unreachable.has(target)
            ? `no answer yet for icmp_seq=${seq}`
            : `64 bytes from ${target}: icmp_seq=${seq} ttl=64 time=0.1 ms`,
        );
      }, Number(m[1]) * 1000);
    }
    return { exited, stop: async () => fake.exit(143) };
  }

  /** A veth's other end goes with it. */
  const peers = new Map<string, string>();
  function dropLink(name: string) {
    const other = peers.get(name);
    for (const gone of other ? [name, other] : [name]) {
      host.links.delete(gone);
      host.routes = host.routes.filter((r) => r.dev !== gone);
      peers.delete(gone);
    }
  }
  return host;
}
