// `wgo up` starts wireguard-go in a session of its own, so an ssh session closing (SIGHUP to its
// session) does not take the interface down with it. Checked with a real process: the daemon's session
// id (field 6 of /proc/<pid>/stat) is its own, not this test's.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";

const sessionOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]);

describe("a daemon started by wgo", () => {
  it.skipIf(process.platform !== "linux")("runs in a new session, apart from the one wgo runs in", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wgo-daemon-"));
    try {
      const out = join(dir, "stat");
      const script = `require("node:fs").writeFileSync(${JSON.stringify(out)}, require("node:fs").readFileSync("/proc/self/stat", "utf8"))`;
      const sys = cli.system.createSystem({ env: process.env });
      const result = await sys.run([process.execPath, "-e", script], { daemon: true });
      expect(result.code).toBe(0);
      const daemon = readFileSync(out, "utf8");
      const pid = Number(daemon.split(" ")[0]);
      expect(sessionOf(daemon)).toBe(pid); // a session leader: setsid made a new session
      expect(sessionOf(daemon)).not.toBe(sessionOf(readFileSync("/proc/self/stat", "utf8")));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
