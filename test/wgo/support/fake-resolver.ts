// The host's resolver tools for the fake host: systemd-resolved's per-link settings as `resolvectl`
// leaves them, and resolvconf's records as `resolvconf -a/-d` leave them. Tools are absent unless a
// test installs them, like on a minimal host.

export interface ResolvedLink {
  dns: string[];
  domains: string[];
  defaultRoute: boolean | null;
}

export interface FakeResolver {
  /** Installed tools: "resolvectl", "resolvconf". */
  tools: Set<string>;
  /** `resolvectl status` succeeds only while resolved runs. */
  resolvedRunning: boolean;
  /** resolved's settings per link; a link resolved knows nothing of is absent. */
  links: Map<string, ResolvedLink>;
  /** resolvconf's records: name → the lines it read on stdin. */
  records: Map<string, string>;
}

export interface ResolverOptions {
  resolvectl?: boolean;
  resolvedRunning?: boolean;
  resolvconf?: boolean;
}

export function fakeResolver(options: ResolverOptions = {}): FakeResolver {
  const tools = new Set<string>();
  if (options.resolvectl) tools.add("resolvectl");
  if (options.resolvconf) tools.add("resolvconf");
  return { tools, resolvedRunning: options.resolvedRunning ?? Boolean(options.resolvectl), links: new Map(), records: new Map() };
}

type Result = { code: number; stdout: string; stderr: string };
const ok = (stdout = ""): Result => ({ code: 0, stdout, stderr: "" });
const fail = (stderr: string): Result => ({ code: 1, stdout: "", stderr });

/** The answer to a resolver command, or null when `argv` is none of them. `hasLink`: the link exists. */
export function resolverCommand(
  resolver: FakeResolver,
  argv: string[],
  input: string | undefined,
  hasLink: (name: string) => boolean,
): Result | null {
  const [tool, verb, ifname, ...rest] = argv;
  if (tool === "sh" && verb === "-c" && ifname?.startsWith("command -v ")) {
    const name = ifname.slice("command -v ".length);
    return resolver.tools.has(name) ? ok(`/usr/bin/${name}`) : fail("");
  }
  if (tool === "resolvectl") {
    if (!resolver.tools.has("resolvectl")) throw new Error("fake host: resolvectl is not installed");
    if (!resolver.resolvedRunning) return fail("Failed to get global data: Could not activate remote peer.");
    if (verb === "status" && ifname === undefined) return ok("Global\n");
    if (!ifname || !hasLink(ifname)) return fail(`Failed to resolve interface "${ifname}": No such device`);
    const link = resolver.links.get(ifname) ?? { dns: [], domains: [], defaultRoute: null };
    const values = rest.length === 1 && rest[0] === "" ? [] : rest; // an empty argument clears
    if (verb === "dns") link.dns = values;
    else if (verb === "domain") link.domains = values;
    else if (verb === "default-route") link.defaultRoute = rest[0] === "true";
    else if (verb === "revert") {
      resolver.links.delete(ifname);
      return ok();
    } else throw new Error(`fake resolvectl: unexpected ${argv.join(" ")}`);
    resolver.links.set(ifname, link);
    return ok();
  }
  if (tool === "resolvconf") {
    if (!resolver.tools.has("resolvconf")) throw new Error("fake host: resolvconf is not installed");
    if (verb === "-a" && ifname && rest.join(" ") === "-m 0 -x" && input !== undefined) {
      resolver.records.set(ifname, input);
      return ok();
    }
    if (verb === "-d" && ifname && rest.join(" ") === "-f") {
      resolver.records.delete(ifname);
      return ok();
    }
    throw new Error(`fake resolvconf: unexpected ${argv.join(" ")}`);
  }
  return null;
}
