// Runs the real CLI (`node cli/wgo.mjs`) as a child process, the way an operator runs it, with
// --json so each command's result can be asserted on, and a home directory per simulated machine.
import { fileURLToPath } from "node:url";
import { describeCommand, run, type CommandResult } from "../support/command.ts";

const WGO = fileURLToPath(new URL("../../../cli/wgo.mjs", import.meta.url));

export interface WgoResult extends CommandResult {
  /** Every stdout line parsed as JSON (--json prints one object per result). */
  json: any[];
}

export type Wgo = (args: string[], options?: { input?: string }) => Promise<WgoResult>;

/**
 * A machine: one API, one state directory. Non-zero exits throw with the command and its stderr. With
 * `netns`, wgo itself runs inside that namespace (as on a laptop: its API requests leave through the
 * namespace's own routes, a NAT router in test/e2e/nat), not in the root namespace with --netns.
 */
export function wgoMachine(baseUrl: string, home: string, { netns }: { netns?: string } = {}): Wgo {
  return async (args, options = {}) => {
    const inside = netns ? ["ip", "netns", "exec", netns] : [];
    const argv = [...inside, process.execPath, WGO, "--api", baseUrl, "--home", home, "--json", ...args];
    const result = await run(argv, {
      input: options.input,
      timeoutMs: 60_000,
      // wireguard-go asks for this on kernels that have WireGuard built in; the CLI passes it through.
      env: { ...process.env, WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1" },
    });
    if (result.code !== 0) {
      throw new Error(`${describeCommand(argv.slice(inside.length + 1))} exited ${result.code}:\n${result.stderr}${result.stdout}`);
    }
    return {
      ...result,
      json: result.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    };
  };
}
