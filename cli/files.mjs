// Where wgo keeps its state, and how: every file holds a secret (tokens, a private key, a config with
// the private key in it), so files are 0600 and the directories wgo creates are 0700. The files wgo
// writes for others to read (a namespace's resolv.conf, a systemd unit) have their own helper (writeSharedFile).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { OperationError } from "./errors.mjs";

/** --home, then WGO_HOME, then $XDG_CONFIG_HOME/wgo, then ~/.config/wgo. */
export function resolveHome(values, env) {
  if (values.home) return values.home;
  if (env.WGO_HOME) return env.WGO_HOME;
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "wgo");
}

export const paths = {
  session: (home) => join(home, "session.json"),
  devices: (home) => join(home, "devices"),
  key: (home, name) => join(home, "devices", `${name}.key`),
  device: (home, name) => join(home, "devices", `${name}.json`),
  config: (home, name) => join(home, "devices", `${name}.conf`),
  /** The NodeConfig JSON the .conf was made from, the base of delta sync (not *.json: that is a device). */
  heldConfig: (home, name) => join(home, "devices", `${name}.nodeconfig`),
  /** What the server holds of the device's peer counters (cli/peer-report.mjs): the base of the next report. */
  peerReport: (home, name) => join(home, "devices", `${name}.peerreport`),
  /** wg-quick names the interface after the file, so its copy lives under the interface's name. */
  wgQuick: (home, ifname) => join(home, "run", `${ifname}.conf`),
};

/** Creates `dir` (and parents) as 0700; a directory that already exists is left as its owner set it. */
export function ensurePrivateDir(dir) {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700); // mkdir's mode is filtered by the umask; be explicit
}

/**
 * Writes atomically (temp file + rename) so a crash never leaves half a token file, and the temp file
 * is created 0600, so the secret is never readable by others even for a moment.
 */
export function writeSecretFile(path, text) {
  ensurePrivateDir(dirname(path));
  const temp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(temp, text, { mode: 0o600, flag: "w" });
    chmodSync(temp, 0o600); // an existing temp file keeps its old mode otherwise
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new OperationError(`cannot write ${path}: ${error instanceof Error ? error.message : error}`);
  }
}

/**
 * A file every process must read (a namespace's resolv.conf, a systemd unit), so 0644 in a 0755 directory. Written in
 * place, not renamed over: `ip netns exec` bind-mounts it, and a process that already holds that mount
 * would keep seeing a replaced file's old inode. @returns {string[]} the directories it created, deepest first
 */
export function writeSharedFile(path, text) {
  const dir = dirname(path);
  try {
    const top = mkdirSync(dir, { recursive: true, mode: 0o755 }); // the first directory it created, if any
    writeFileSync(path, text, { mode: 0o644 });
    chmodSync(path, 0o644); // an existing file keeps its old mode otherwise
    const created = [];
    for (let at = dir; top && at.length >= top.length; at = dirname(at)) created.push(at);
    return created;
  } catch (error) {
    throw new OperationError(`cannot write ${path}: ${error instanceof Error ? error.message : error}`);
  }
}

/** Removes the directories given (deepest first) while they are empty; one that holds anything stays. */
export function removeEmptyDirs(dirs) {
  for (const dir of dirs) {
    try {
      rmdirSync(dir);
    } catch (error) {
      if (error && typeof error === "object" && "code" in error && error.code === "ENOENT") continue;
      return; // not empty (someone else's files): nothing above it is ours alone either
    }
  }
}

export function writeSecretJson(path, value) {
  writeSecretFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** @returns {any | null} null when the file does not exist */
export function readJson(path) {
  const text = readText(path);
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new OperationError(`${path} is not valid JSON; fix or remove it`);
  }
}

/** @returns {string | null} */
export function readText(path) {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (error && typeof error === "object" && "code" in error && error.code === "ENOENT") return null;
    throw new OperationError(`cannot read ${path}: ${error instanceof Error ? error.message : error}`);
  }
}

export function removeFile(path) {
  rmSync(path, { force: true });
}
