// The commands the console shows (`wgo gateway enrol …`, `wgo gateway run`, `wgo up …`), run as a person
// pastes them on a machine: the text as read from the page, `wgo` being this checkout's cli/wgo.mjs. A lab
// "machine" is a network namespace: wgo itself stays in the root namespace (where the Worker listens on
// 127.0.0.1) and puts what it sets up inside with --netns, and each machine keeps its own state through
// wgo's environment (WGO_HOME, WGO_GATEWAY_STATE), so the pasted text needs no flag of ours for that.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeCommand, OutputTail, run } from "../support/command.ts";

const WGO = fileURLToPath(new URL("../../../cli/wgo.mjs", import.meta.url));

/** One lab machine's wgo: its state directories and the namespace it stands for. */
export interface Machine {
  netns: string;
  home: string;
  gatewayState: string;
}

/** A lab machine `name` standing for namespace `netns`, its state under `scratch`. */
export const labMachine = (scratch: string, netns: string, name: string): Machine => ({
  netns,
  home: join(scratch, name),
  gatewayState: join(scratch, `${name}-gw`),
});

/** The words of a shown command; it must be a wgo command on one line (what a copy button copies). */
export function wordsOf(shown: string): string[] {
  const words = shown.trim().split(/\s+/);
  if (words[0] !== "wgo" || shown.trim().includes("\n")) throw new Error(`not one wgo command: ${JSON.stringify(shown)}`);
  return words.slice(1);
}

const envOf = (machine: Machine) => ({
  ...process.env,
  WGO_HOME: machine.home,
  WGO_GATEWAY_STATE: machine.gatewayState,
  // wireguard-go asks for this on kernels with WireGuard built in; the CLI passes it through.
  WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1",
});

/** Runs a shown command to its end, with `extra` words after it (--netns …); throws with its output if it fails. */
export async function runShown(machine: Machine, shown: string, extra: string[] = []) {
  const argv = [process.execPath, WGO, ...wordsOf(shown), ...extra];
  const result = await run(argv, { env: envOf(machine), timeoutMs: 90_000 });
  if (result.code !== 0) throw new Error(`${describeCommand(argv.slice(1))} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  return result;
}

export interface RunningCommand {
  output(): string;
  stop(): Promise<number>;
}

/** Starts a long-running shown command (`wgo gateway run`) as its service would; stop() sends SIGTERM. */
export function startShown(machine: Machine, shown: string, extra: string[] = []): RunningCommand {
  const output = new OutputTail();
  const child: ChildProcess = spawn(process.execPath, [WGO, ...wordsOf(shown), ...extra], {
    env: envOf(machine),
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => output.append(chunk));
  child.stderr!.on("data", (chunk) => output.append(chunk));
  const exited = new Promise<number>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  return {
    output: () => output.toString(),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
