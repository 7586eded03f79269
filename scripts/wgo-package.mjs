// wgo as the control plane serves it (issue 47): cli/ as a gzipped tarball in dist/assets/api/v1/wgo/, built from
// the same checkout as the Worker, so the wgo a machine installs is the one its server was built with. Beside it
// manifest.json (version, file, sha256, oldest Node), which GET /api/v1/version and GET /api/v1/install.sh read.
// The tarball is reproducible: sorted entries, fixed times and owners, so unchanged code makes unchanged bytes.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";

/** The oldest Node wgo runs on: global fetch (18.0), util.parseArgs (18.3), URLSearchParams.size (18.16). */
export const MIN_NODE = "18.16";
/** 2026-01-01T00:00:00Z: every entry's time, so the bytes depend on the code alone. */
const MTIME = 1767225600;

/** Every file of cli/ wgo runs with (not the type-check files), as [path in the package, bytes]. */
function packageFiles(root) {
  const cli = join(root, "cli");
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith(".mjs") ? [join(dir, entry.name)] : [],
    );
  return walk(cli)
    .map((path) => [`wgo/cli/${relative(cli, path)}`, readFileSync(path)])
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/** One ustar header: a regular file, mode 0644, owner root. */
function header(name, size) {
  if (Buffer.byteLength(name) > 100) throw new Error(`${name}: longer than a ustar name`);
  const block = Buffer.alloc(512);
  const put = (text, offset, length) => block.write(text, offset, length, "utf8");
  const octal = (value, length) => `${value.toString(8).padStart(length - 1, "0")}\0`;
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(MTIME, 12), 136, 12);
  put("        ", 148, 8); // the checksum counts its own field as spaces
  put("0", 156, 1);
  put("ustar\0", 257, 6);
  put("00", 263, 2);
  put("root", 265, 32);
  put("root", 297, 32);
  const sum = block.reduce((total, byte) => total + byte, 0);
  put(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8);
  return block;
}

export function tarball(files) {
  const parts = [];
  for (const [name, bytes] of files) {
    parts.push(header(name, bytes.length), bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024)); // two empty blocks end the archive
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

function writeIfChanged(path, bytes) {
  try {
    if (readFileSync(path).equals(bytes)) return;
  } catch {
    // not there yet
  }
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

/** Builds `<out>/api/v1/wgo/wgo-<version>.tgz` and its manifest; removes older packages. */
export function buildWgoPackage(root, out) {
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const dir = join(out, "api/v1/wgo");
  mkdirSync(dir, { recursive: true });
  const file = `wgo-${version}.tgz`;
  const bytes = tarball([
    ...packageFiles(root),
    [
      "wgo/package.json",
      Buffer.from(`${JSON.stringify({ name: "wgo", version, type: "module", engines: { node: `>=${MIN_NODE}` } }, null, 2)}\n`),
    ],
  ]);
  writeIfChanged(join(dir, file), bytes);
  const manifest = { version, file, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), minNode: MIN_NODE };
  writeIfChanged(join(dir, "manifest.json"), Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  for (const stale of readdirSync(dir).filter((name) => name !== file && name !== "manifest.json" && !name.endsWith(".tmp"))) {
    if (statSync(join(dir, stale)).isFile()) rmSync(join(dir, stale), { force: true });
  }
  return manifest;
}
