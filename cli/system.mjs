// Runs the host tools (ip, wg, wg-quick, wireguard-go, sysctl) as argv lists, never through a shell.
// With --netns every command runs as `ip netns exec NS …`: wgo itself stays where the API is
// reachable and only the interface lives in the namespace (how operators drive containers, too).
import { spawn } from "node:child_process";
import { OperationError } from "./errors.mjs";

/** @typedef {{ code: number, stdout: string, stderr: string }} CommandResult */
/**
 * @typedef {{ exited: Promise<{ code: number, stderr: string }>, stop(): Promise<void> }} LineStream
 * @typedef {{ netns?: string, run(argv: string[], options?: { input?: string, daemon?: boolean }): Promise<CommandResult>,
 *   check(argv: string[], options?: { input?: string, daemon?: boolean }): Promise<string>,
 *   streamLines(argv: string[], onLine: (line: string) => void): LineStream }} System
 */

const TIMEOUT_MS = 30_000;

/** The package that brings each tool wgo runs (Debian/Ubuntu and Fedora use the same names for these). */
const PACKAGES = {
  ip: "iproute2",
  wg: "wireguard-tools",
  "wg-quick": "wireguard-tools",
  "wireguard-go": "wireguard-go (or a kernel with the wireguard module)",
  resolvectl: "systemd-resolved",
  resolvconf: "resolvconf",
  sysctl: "procps",
  nft: "nftables",
  systemctl: "systemd",
  ping: "iputils-ping (Fedora: iputils)",
};

/** The error for a tool that is not on PATH, naming the package to install. */
export function missingTool(name) {
  const hint = PACKAGES[name] ? `: install ${PACKAGES[name]}` : "";
  return new OperationError(`${name} is not installed (or not on PATH)${hint}`, { code: "missing_tool" });
}

/**
 * @param {{ netns?: string | null, env?: NodeJS.ProcessEnv }} [options]
 * @returns {System}
 */
export function createSystem({ netns, env = process.env } = {}) {
  const prefix = netns ? ["ip", "netns", "exec", netns] : [];
  const run = (argv, options = {}) => spawnCommand([...prefix, ...argv], env, options);
  return {
    netns,
    run,
    async check(argv, options) {
      const result = await run(argv, options);
      if (result.code !== 0) {
        const detail = (result.stderr || result.stdout).trim().split("\n").filter(Boolean).pop() ?? "";
        throw new OperationError(`${describe([...prefix, ...argv])} failed (exit ${result.code})${detail ? `: ${detail}` : ""}`);
      }
      return result.stdout;
    },
    streamLines: (argv, onLine) => streamCommand([...prefix, ...argv], env, onLine),
  };
}

/** How long a stopped stream may take to exit on SIGTERM before it is killed. */
const STOP_GRACE_MS = 2_000;

/**
 * A long-lived command (the gateway's `ping` probes) whose stdout is handed over line by line as it comes.
 * No timeout: it runs until stop(), which waits until it is reaped. `ip netns exec` execs the command
 * (same process), so the signal reaches it; and should wgo itself die, the command's next line meets a
 * closed pipe (SIGPIPE) and it ends too.
 * @returns {LineStream}
 */
function streamCommand(argv, env, onLine) {
  const child = spawn(argv[0], argv.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
  let pending = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) onLine(line);
  });
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-1_000)));
  const exited = new Promise((resolve) => {
    child.on("error", (error) => {
      const missing = "code" in error && error.code === "ENOENT";
      resolve({ code: 127, stderr: missing ? missingTool(argv[0]).message : error.message });
    });
    child.on("close", (code, signal) => resolve({ code: code ?? 128, stderr: signal ? `${stderr}killed by ${signal}` : stderr }));
  });
  return {
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * `daemon`: the command forks a daemon and exits (wireguard-go). The daemon may keep our pipes open,
 * so the result is taken at the parent's exit, not when the pipes close. It starts in a session of its
 * own (setsid, Node's `detached`): closing the terminal or ssh session `wgo up` ran in hangs up that
 * session's processes, and the interface must outlive it.
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 * @param {{ input?: string, daemon?: boolean }} [options]
 */
function spawnCommand(argv, env, { input, daemon = false } = {}) {
  return new Promise((resolve, reject) => {
    /** @type {["ignore" | "pipe", "pipe", "pipe"]} */
    const stdio = [input === undefined ? "ignore" : "pipe", "pipe", "pipe"];
    const child = spawn(argv[0], argv.slice(1), { env, stdio, detached: daemon });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      const missing = "code" in error && error.code === "ENOENT";
      reject(missing ? missingTool(argv[0]) : new OperationError(`${argv[0]}: ${error.message}`));
    });
    child.on(daemon ? "exit" : "close", (code, signal) => {
      clearTimeout(timer);
      if (daemon) {
        child.stdout.destroy();
        child.stderr.destroy();
      }
      resolve({ code: code ?? 128, stdout, stderr: signal ? `${stderr}killed by ${signal}` : stderr });
    });
    if (input !== undefined) {
      child.stdin.on("error", () => {}); // a tool that exits without reading is reported by its exit code
      child.stdin.end(input);
    }
  });
}

export function describe(argv) {
  return argv.map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(" ");
}

/**
 * `wg show <if> dump`: the first line is the interface, then one tab-separated line per peer:
 * public-key preshared-key endpoint allowed-ips latest-handshake rx tx keepalive.
 * @returns {{ listenPort: number | null, peers: Array<{ publicKey: string, endpoint: string | null, allowedIps: string[],
 *   latestHandshake: number, rxBytes: number, txBytes: number }> }}
 */
export function parseWgDump(text) {
  const [head, ...lines] = text.trim().split("\n");
  const listenPort = Number(head?.split("\t")[2]);
  return {
    listenPort: Number.isInteger(listenPort) && listenPort > 0 ? listenPort : null,
    peers: lines.filter(Boolean).map((line) => {
      const [publicKey, , endpoint, allowedIps, handshake, rx, tx] = line.split("\t");
      return {
        publicKey,
        endpoint: endpoint === "(none)" ? null : endpoint,
        allowedIps: !allowedIps || allowedIps === "(none)" ? [] : allowedIps.split(","),
        latestHandshake: Number(handshake),
        rxBytes: Number(rx),
        txBytes: Number(tx),
      };
    }),
  };
}

/**
 * A heartbeat's peer entry: the handshake epoch as RFC 3339, or null for "never" (0); the endpoint WireGuard
 * holds for the peer when it holds one (and `endpoints` is not false: servers from before issue 28 refuse it).
 */
export function heartbeatPeers(dump, { endpoints = true } = {}) {
  return dump.peers.map((peer) => ({
    publicKey: peer.publicKey,
    lastHandshakeAt: peer.latestHandshake > 0 ? new Date(peer.latestHandshake * 1000).toISOString() : null,
    rxBytes: peer.rxBytes,
    txBytes: peer.txBytes,
    ...(endpoints && peer.endpoint ? { endpoint: peer.endpoint } : {}),
  }));
}
