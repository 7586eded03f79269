// Loading nftables scripts: the gateway's routing domains (gateway/domain-apply.mjs) and the access
// filters of devices and gateway nodes (access-filter.mjs).
import { join } from "node:path";
import { removeFile, writeSecretFile } from "./files.mjs";

/**
 * Runs an nft script in one transaction (all of it or none). Through a file: Node's stdin pipes are
 * sockets, which nft cannot open as a file. `dir` is a directory of ours for the moment it exists.
 * @param {import("./system.mjs").System} sys
 * @param {string} dir
 * @param {string} script
 */
export async function runNft(sys, dir, script) {
  const path = join(dir, `nft-${process.pid}.tmp`);
  writeSecretFile(path, script);
  try {
    await sys.check(["nft", "-f", path]);
  } finally {
    removeFile(path);
  }
}
