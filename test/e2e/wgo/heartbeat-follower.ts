// `wgo heartbeat --apply` as a long-lived child process, the way the device's systemd unit runs it
// (cli/systemd-units.mjs): it beats, long-polls the config between beats and applies every change.
import { type ChildProcess, spawn } from "node:child_process";
import { OutputTail } from "../support/command.ts";
import { wgoArgv, wgoEnv } from "../gateway/agent-process.ts";

export interface Follower {
  /** What it printed so far (one JSON line a beat) and logged. */
  output(): string;
  /** Stops it with SIGTERM; resolves with its exit code. */
  stop(): Promise<number>;
}

export function startFollower(apiUrl: string, home: string, name: string, intervalSeconds = 30): Follower {
  const args = ["--api", apiUrl, "--home", home, "--json", "heartbeat", "--name", name, "--apply", "--interval", String(intervalSeconds)];
  const argv = wgoArgv(args);
  const child: ChildProcess = spawn(argv[0]!, argv.slice(1), { env: wgoEnv, stdio: ["ignore", "pipe", "pipe"] });
  const log = new OutputTail();
  child.stdout!.on("data", (chunk) => log.append(chunk));
  child.stderr!.on("data", (chunk) => log.append(chunk));
  const exited = new Promise<number>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  return {
    output: () => log.toString(),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
