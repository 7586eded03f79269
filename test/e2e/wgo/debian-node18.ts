// The oldest Node wgo supports, to run it on: Debian bookworm's Node 18, fetched with apt-get download and
// unpacked (dpkg -x), not installed (the machine keeps its own Node). Debian's build loads some builtins from
// /usr/share/nodejs, so the `node` wrapper overlays the unpacked /usr/share in a private mount namespace.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const CACHE = "/tmp/wgo-e2e-node18";
const PACKAGES = ["libnode108", "libc-ares2", "node-acorn", "node-cjs-module-lexer", "node-undici"];

/** A directory whose `node` is Debian's Node 18, or a reason it could not be made. */
export function debianNode18(): { bin: string; version: string } | { reason: string } {
  const root = join(CACHE, "root");
  const bin = join(CACHE, "bin");
  if (!existsSync(join(bin, "node"))) {
    mkdirSync(CACHE, { recursive: true });
    const madison = spawnSync("apt-cache", ["madison", "nodejs"], { encoding: "utf8" }).stdout ?? "";
    const version = madison
      .split("\n")
      .map((line) => line.split("|")[1]?.trim() ?? "")
      .find((v) => v.startsWith("18."));
    if (!version) return { reason: "apt-cache knows no nodejs 18 (run apt-get update?)" };
    for (const name of [`nodejs=${version}`, ...PACKAGES]) {
      const got = spawnSync("apt-get", ["download", name], { cwd: CACHE, encoding: "utf8" });
      if (got.status !== 0) return { reason: `apt-get download ${name}: ${got.stderr.trim()}` };
    }
    for (const deb of readdirSync(CACHE).filter((file) => file.endsWith(".deb"))) spawnSync("dpkg", ["-x", join(CACHE, deb), root]);
    mkdirSync(bin, { recursive: true });
    const script = `mount -t overlay overlay -o lowerdir=${root}/usr/share:/usr/share /usr/share && LD_LIBRARY_PATH=${root}/usr/lib/x86_64-linux-gnu exec ${root}/usr/bin/node "$@"`;
    writeFileSync(join(bin, "node"), `#!/bin/sh\nexec unshare -m sh -c '${script}' node "$@"\n`);
    chmodSync(join(bin, "node"), 0o755);
  }
  const ran = spawnSync(join(bin, "node"), ["--version"], { encoding: "utf8" });
  if (ran.status !== 0 || !ran.stdout.startsWith("v18.")) return { reason: `Node 18 does not run: ${ran.stderr.trim()}` };
  return { bin, version: ran.stdout.trim() };
}
