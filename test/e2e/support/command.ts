import { spawn } from "node:child_process";

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs argv directly (no shell, so no quoting bugs) and never throws on a non-zero exit:
 * callers such as `ping` treat failure as an answer, not an error.
 */
export interface RunOptions {
  input?: string;
  timeoutMs?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export function run(argv: string[], options: RunOptions = {}): Promise<CommandResult> {
  const [file, ...args] = argv;
  if (!file) throw new Error("run: empty argv");
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      cwd: options.cwd,
      env: options.env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // A wedged command must fail the test with its name, not hang until vitest's 180 s timeout.
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${describeCommand(argv)}: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr: signal ? `${stderr}(killed by ${signal})` : stderr });
    });
    if (options.input !== undefined) {
      child.stdin!.on("error", () => {}); // a child that exits without reading its input is not our error
      child.stdin!.end(options.input);
    }
  });
}

/** Like `run`, but a non-zero exit throws with the command line and its stderr; returns stdout. */
export async function check(argv: string[], options: RunOptions = {}): Promise<string> {
  const result = await run(argv, options);
  if (result.code !== 0) {
    throw new Error(`${describeCommand(argv)} exited ${result.code}: ${(result.stderr || result.stdout).trim()}`);
  }
  return result.stdout;
}

export function describeCommand(argv: string[]): string {
  return argv.map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(" ");
}

/** Keeps only the tail of a long-running process's output, for error messages. */
export class OutputTail {
  private text = "";
  constructor(private readonly maxChars = 20_000) {}
  append(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.maxChars);
  }
  toString(): string {
    return this.text;
  }
}

export async function waitFor(
  what: string,
  probe: () => Promise<boolean> | boolean,
  { timeoutMs, intervalMs = 100, details }: { timeoutMs: number; intervalMs?: number; details?: () => string },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${details ? `\n${details()}` : ""}`);
}

const lastResortCleanups = new Set<() => void>();

/**
 * Registers synchronous cleanup for when afterAll never runs. vitest stops a worker with SIGTERM
 * (SIGKILL 500 ms later) and Ctrl-C sends SIGINT; neither fires "exit", so those are caught too,
 * the cleanups run, and the signal is raised again so the process still dies the way it would have.
 * Returns the unregister function.
 */
export function onAbruptExit(cleanup: () => void): () => void {
  if (!abruptExitHooked) hookAbruptExit();
  lastResortCleanups.add(cleanup);
  return () => lastResortCleanups.delete(cleanup);
}

let abruptExitHooked = false;
function hookAbruptExit(): void {
  abruptExitHooked = true;
  const runAll = () => {
    for (const cleanup of [...lastResortCleanups]) {
      try {
        cleanup();
      } catch {
        // best effort: the process is going away
      }
    }
    lastResortCleanups.clear();
  };
  process.once("exit", runAll);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      runAll();
      process.kill(process.pid, signal);
    });
  }
}
