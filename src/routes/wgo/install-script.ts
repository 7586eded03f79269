import type { WgoManifest } from "./wgo-manifest";

/** Single quotes for sh: nothing inside is expanded ('\'' closes, adds a quote, reopens). */
const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The Node program install.sh runs: download the package from this origin, check its SHA-256, unpack it (a ustar
 * tarball of plain files: read here, so Node is all a machine needs, no tar or gzip), replace the installed copy
 * in one rename, write the launcher. Arguments: url, sha256, prefix, the node the launcher runs (as PATH found it).
 */
const INSTALLER = `
const { createHash } = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const zlib = require("node:zlib");
const [url, sha256, prefix, node] = process.argv.slice(1);
const fail = (message) => { console.error("wgo install: " + message); process.exit(1); };
(async () => {
  const response = await fetch(url).catch((error) => fail("cannot download " + url + ": " + (error.cause?.message ?? error.message)));
  if (!response.ok) fail(url + " answered " + response.status);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (createHash("sha256").update(bytes).digest("hex") !== sha256) fail(url + " is not the package the server announced (SHA-256 differs)");
  const tar = zlib.gunzipSync(bytes);
  const lib = path.join(prefix, "lib", "wgo");
  const next = lib + ".new-" + process.pid;
  fs.rmSync(next, { recursive: true, force: true });
  for (let at = 0; at + 512 <= tar.length; ) {
    const head = tar.subarray(at, at + 512);
    const name = head.toString("utf8", 0, 100).replace(/\\0.*$/s, "");
    if (!name) break;
    const size = parseInt(head.toString("ascii", 124, 136).replace(/\\0.*$/s, "").trim(), 8);
    const type = head.toString("ascii", 156, 157);
    if ((type === "0" || type === "\\0") && name.startsWith("wgo/") && !name.split("/").includes("..")) {
      const to = path.join(next, name.slice(4));
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.writeFileSync(to, tar.subarray(at + 512, at + 512 + size), { mode: 0o644 });
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  if (!fs.existsSync(path.join(next, "cli", "wgo.mjs"))) fail("the package holds no cli/wgo.mjs");
  fs.rmSync(lib + ".old", { recursive: true, force: true });
  if (fs.existsSync(lib)) fs.renameSync(lib, lib + ".old");
  fs.renameSync(next, lib);
  fs.rmSync(lib + ".old", { recursive: true, force: true });
  const bin = path.join(prefix, "bin", "wgo");
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  const q = (text) => "'" + text.replace(/'/g, "'\\\\''") + "'";
  fs.writeFileSync(bin + ".tmp", "#!/bin/sh\\nexec " + q(node) + " " + q(path.join(lib, "cli", "wgo.mjs")) + ' "$@"\\n', { mode: 0o755 });
  fs.chmodSync(bin + ".tmp", 0o755);
  fs.renameSync(bin + ".tmp", bin);
  console.log("wgo installed: " + bin + " (" + lib + ")");
})().catch((error) => fail(error.message));
`;

/**
 * GET /api/v1/install.sh: `curl -fsSL <origin>/api/v1/install.sh | sudo sh` installs the wgo this server serves
 * under $WGO_PREFIX (default /usr/local): lib/wgo and a bin/wgo launcher. Node is the only prerequisite.
 */
export function installScript(origin: string, manifest: WgoManifest, packageUrl: string): string {
  const [major, minor] = manifest.minNode.split(".").map(Number);
  return `#!/bin/sh
# wgo ${manifest.version}, the command-line client of the WireGuard overlay control plane at ${origin}.
# Usage: curl -fsSL ${origin}/api/v1/install.sh | sudo sh      (WGO_PREFIX=/usr/local by default)
set -eu
ORIGIN=${quoted(origin)}
PREFIX="\${WGO_PREFIX:-/usr/local}"
if ! command -v node >/dev/null 2>&1; then
  echo "wgo install: wgo needs Node.js ${manifest.minNode} or newer (Debian and Ubuntu: apt-get install nodejs), and none is on PATH" >&2
  exit 1
fi
version=$(node -p 'process.versions.node')
major=\${version%%.*}
rest=\${version#*.}
minor=\${rest%%.*}
if [ "$major" -lt ${major} ] || { [ "$major" -eq ${major} ] && [ "$minor" -lt ${minor ?? 0} ]; }; then
  echo "wgo install: Node.js $version is too old: wgo needs ${manifest.minNode} or newer" >&2
  exit 1
fi
node -e ${quoted(INSTALLER)} ${quoted(packageUrl)} ${quoted(manifest.sha256)} "$PREFIX" "$(command -v node)"
echo "wgo ${manifest.version}: run 'wgo up --api $ORIGIN --network NAME --email EMAIL --service' (as root) to join a network"
`;
}
