// Which named network namespace this process runs in, the way `ip netns identify` tells: the namespace
// file of this process has the same inode as one of the names `ip netns add` bind-mounts under /run/netns.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * @param {{ self?: string, named?: string }} [where] the files to compare (tests point them elsewhere)
 * @returns {string | null} the namespace's name, or null outside any named one (or when it cannot tell)
 */
export function namedNetnsHere({ self = "/proc/self/ns/net", named = "/run/netns" } = {}) {
  try {
    const here = statSync(self);
    for (const name of readdirSync(named)) {
      const entry = statSync(join(named, name));
      if (entry.ino === here.ino && entry.dev === here.dev) return name;
    }
  } catch {
    // No /proc or no /run/netns: not in a named namespace as far as anyone can tell.
  }
  return null;
}
