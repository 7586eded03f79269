// `wgo gateway run` as a long-lived child process, the way systemd runs it: one per gateway machine,
// its own state directory, its nodes set up inside the machine's namespace (wgo itself stays in the root
// namespace, where the Worker on 127.0.0.1 is reachable).
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { OutputTail, run } from "../support/command.ts";

const WGO = fileURLToPath(new URL("../../../cli/wgo.mjs", import.meta.url));

export interface AgentProcess {
  readonly stateDir: string;
  /** Everything it logged so far (stderr) and printed (stdout). */
  output(): string;
  /** Resolves with the exit code once it exits (SIGTERM from stop(), or on its own). */
  exited: Promise<number>;
  stop(): Promise<number>;
}

export const wgoEnv = { ...process.env, WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1" };

export function wgoArgv(args: string[]): string[] {
  return [process.execPath, WGO, ...args];
}

export function startAgent(stateDir: string, netns: string): AgentProcess {
  const output = new OutputTail();
  const child: ChildProcess = spawn(process.execPath, [WGO, "--json", "gateway", "run", "--state-dir", stateDir, "--netns", netns], {
    env: wgoEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => output.append(chunk));
  child.stderr!.on("data", (chunk) => output.append(chunk));
  const exited = new Promise<number>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  return {
    stateDir,
    output: () => output.toString(),
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** A gateway machine that does nothing else: `wgo gateway enrol` with its token, then `wgo gateway run` in `netns`. */
export async function enrolAndRunAgent(
  baseUrl: string,
  token: string,
  name: string,
  stateDir: string,
  netns: string,
): Promise<AgentProcess> {
  const argv = wgoArgv(["--api", baseUrl, "--json", "gateway", "enrol", "--token", token, "--name", name, "--state-dir", stateDir]);
  const enrolled = await run(argv, { env: wgoEnv });
  if (enrolled.code !== 0) throw new Error(`wgo gateway enrol (${name}) exited ${enrolled.code}: ${enrolled.stderr}`);
  return startAgent(stateDir, netns);
}
