// The DNS server a gateway node runs for its network's zone, on the node's overlay address, port 53:
// CoreDNS when installed (the server's Corefile, made here: our zone file, bound to the node's address),
// otherwise Knot DNS (Debian's `knot`), configured here. Started as a daemon inside the node's namespace,
// reloaded when only the zone changed, restarted when its own configuration did.
import { isIP } from "node:net";
import { join } from "node:path";
import { OperationError } from "../errors.mjs";
import { ensurePrivateDir, readText, removeFile, writeSecretFile } from "../files.mjs";

/** The binary's path, or null; knotd lives in /usr/sbin, which a user's PATH may not have. */
async function locate(sys, name) {
  const result = await sys.run(["sh", "-c", `PATH="$PATH:/usr/sbin:/usr/local/sbin" command -v ${name}`]);
  return result.code === 0 && result.stdout.trim() ? result.stdout.trim() : null;
}

/** Which server this gateway can run: CoreDNS if installed, else Knot, else none (then it serves no DNS). */
export async function availableDnsServer(sys) {
  if (await locate(sys, "coredns")) return "coredns";
  if ((await locate(sys, "knotd")) && (await locate(sys, "knotc"))) return "knot";
  return null;
}

const listenSpelling = (address) => (address.includes(":") ? `[${address}]` : address);

/** Knot serving exactly the rendered file: never written back, no journal, strict checks. */
export function knotConfig(dir, address, domain) {
  return [
    "# Written by wgo gateway run: the overlay network's zone, authoritative only.",
    "server:",
    `    rundir: "${join(dir, "run")}"`,
    `    listen: ${address}@53`,
    "database:",
    `    storage: "${join(dir, "db")}"`,
    "log:",
    `  - target: "${join(dir, "knot.log")}"`,
    "    any: notice",
    "zone:",
    `  - domain: ${domain}`,
    `    storage: "${dir}"`,
    `    file: "zone"`,
    "    zonefile-sync: -1",
    "    zonefile-load: whole",
    "    journal-content: none",
    "    semantic-checks: on",
    "",
  ].join("\n");
}

/**
 * CoreDNS serving the zone from the agent's file on the node's address only. Built here from the checked
 * domain and address, not taken from the server's Corefile text, so nothing but these lines reaches CoreDNS;
 * it is the server's `GET /networks/:id/dns/corefile` with `bind` and the file path set (a test holds them equal).
 */
export function localCorefile(domain, zonePath, address) {
  const zone = domain.toLowerCase().replace(/\.$/, "");
  return [
    `# CoreDNS for the overlay network zone ${zone}. Serves only this zone; other names are REFUSED.`,
    `${zone}:53 {`,
    `    bind ${address}`,
    `    file ${zonePath} ${zone} {`,
    "        reload 30s",
    "    }",
    "    errors",
    "    log",
    "}",
    "",
  ].join("\n");
}

const pidFile = (dir, kind) => (kind === "knot" ? join(dir, "run", "knot.pid") : join(dir, "coredns.pid"));

function runningPid(dir, kind) {
  const text = readText(pidFile(dir, kind));
  const pid = Number(text?.trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0); // network namespaces share the PID space, so this sees daemons in any of them
    return pid;
  } catch {
    return null;
  }
}

async function stopPid(pid) {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  for (let waited = 0; waited < 5_000; waited += 50) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.kill(pid, "SIGKILL");
}

/** Writes `path` only when its content differs; says whether it did. */
function writeIfChanged(path, text) {
  if (readText(path) === text) return false;
  writeSecretFile(path, text);
  return true;
}

/**
 * Serves `zonefile` for `domain` on `address`:53 from `dir`. Returns the server kind it runs.
 * @param {import("../system.mjs").System} sys
 * @param {{ dir: string, kind: "knot" | "coredns", address: string, domain: string, zonefile: string }} zone
 */
export async function serveZone(sys, { dir, kind, address, domain, zonefile }) {
  // Both go into a configuration file: a value from the server must not be able to add lines to it.
  if (isIP(address) === 0) throw new OperationError(`the node's address ${JSON.stringify(address)} is not an IP address`);
  if (!/^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9])?)*$/.test(domain)) {
    throw new OperationError(`the network's DNS domain ${JSON.stringify(domain)} is not a domain name`);
  }
  ensurePrivateDir(join(dir, "run"));
  ensurePrivateDir(join(dir, "db"));
  const zoneChanged = writeIfChanged(join(dir, "zone"), zonefile);
  const confPath = join(dir, kind === "knot" ? "knot.conf" : "Corefile");
  const conf = kind === "knot" ? knotConfig(dir, listenSpelling(address), domain) : localCorefile(domain, join(dir, "zone"), address);
  const confChanged = writeIfChanged(confPath, conf);
  const pid = runningPid(dir, kind);
  if (pid && !confChanged) {
    if (zoneChanged) await reload(sys, kind, confPath, domain, pid);
    return kind;
  }
  if (pid) await stopPid(pid);
  await start(sys, kind, confPath, dir);
  return kind;
}

async function reload(sys, kind, confPath, domain, pid) {
  // CoreDNS's file plugin re-reads on its own interval; SIGUSR1 reloads it at once.
  if (kind === "coredns") process.kill(pid, "SIGUSR1");
  else await sys.check([(await locate(sys, "knotc")) ?? "knotc", "-c", confPath, "zone-reload", domain]);
}

async function start(sys, kind, confPath, dir) {
  const argv =
    kind === "knot"
      ? [(await locate(sys, "knotd")) ?? "knotd", "-d", "-c", confPath]
      : ["setsid", "-f", (await locate(sys, "coredns")) ?? "coredns", "-conf", confPath, "-pidfile", pidFile(dir, kind)];
  const result = await sys.run(argv, { daemon: true });
  for (let waited = 0; waited < 5_000; waited += 50) {
    if (runningPid(dir, kind)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const log = kind === "knot" ? (readText(join(dir, "knot.log")) ?? "").trim().split("\n").slice(-3).join("; ") : "";
  throw new OperationError(`${kind === "knot" ? "knotd" : "coredns"} did not start (exit ${result.code}): ${log || result.stderr.trim()}`);
}

/** Stops whichever server runs from `dir` and removes its files. */
export async function stopZone(dir) {
  for (const kind of ["knot", "coredns"]) {
    const pid = runningPid(dir, kind);
    if (pid) await stopPid(pid);
  }
  for (const file of ["zone", "knot.conf", "Corefile", "knot.log"]) removeFile(join(dir, file));
}

/** Whether a server still runs from `dir` (for status). */
export const zoneServerRunning = (dir) => runningPid(dir, "knot") !== null || runningPid(dir, "coredns") !== null;
