// Dispatch: parse the command line, build the context every command gets, run it, and turn whatever
// it throws into one line on stderr and an exit code (0 ok, 1 API/operation error, 2 usage error).
import { GLOBAL_USAGE, helpText, parseCommandLine } from "./args.mjs";
import { config } from "./commands/config.mjs";
import { enrol } from "./commands/enrol.mjs";
import { gatewayEnrol, gatewayRun, gatewayStatus } from "./commands/gateway.mjs";
import { heartbeat } from "./commands/heartbeat.mjs";
import { down, up } from "./commands/link.mjs";
import { login, logout } from "./commands/login.mjs";
import { networks } from "./commands/networks.mjs";
import { status } from "./commands/status.mjs";
import { EXIT, renderError } from "./errors.mjs";
import { resolveHome } from "./files.mjs";
import { normalizeApi } from "./http.mjs";
import { createSystem } from "./system.mjs";
import { VERSION } from "./version.mjs";

export const DEFAULT_API = "http://127.0.0.1:8787";

export const COMMANDS = Object.fromEntries(
  [login, logout, networks, enrol, config, up, down, status, heartbeat, gatewayEnrol, gatewayRun, gatewayStatus].map((c) => [c.name, c]),
);

/**
 * @param {string[]} argv the arguments after `wgo`
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, stdin: any, env: NodeJS.ProcessEnv,
 *   signals?: NodeJS.EventEmitter, now?: () => number, createSystem?: typeof createSystem }} io
 *   `signals`, `now` and `createSystem` are there for tests (a fake `ip`/`wg`, a clock, SIGTERM).
 * @returns {Promise<number>} the exit code
 */
export async function main(argv, io) {
  const writeLine = (stream, text) => stream.write(`${text}\n`);
  try {
    const parsed = parseCommandLine(argv, COMMANDS);
    if (parsed.topic) {
      writeLine(io.stdout, parsed.values.version && !parsed.values.help ? `wgo ${VERSION}` : helpText(parsed.topic, COMMANDS));
      return EXIT.ok;
    }
    const explicitApi = parsed.values.api ?? io.env.WGO_API;
    const json = Boolean(parsed.values.json);
    const ctx = {
      home: resolveHome(parsed.values, io.env),
      /** --api or WGO_API, normalised; null lets the session or the device file decide. */
      api: explicitApi ? normalizeApi(explicitApi) : null,
      defaultApi: DEFAULT_API,
      env: io.env,
      stdin: io.stdin,
      stderr: io.stderr,
      signals: io.signals ?? process,
      now: io.now ?? Date.now,
      /** Runs ip/wg/wireguard-go, in a namespace when asked. */
      createSystem: io.createSystem ?? createSystem,
      /** Human text, or with --json the data as one JSON line (for scripts and tests). */
      print: (human, data) => writeLine(io.stdout, json ? JSON.stringify(data) : human),
      note: (text) => writeLine(io.stderr, `note: ${text}`),
      reportError: (error) => writeLine(io.stderr, renderError(error).line),
    };
    return (await parsed.command.run(ctx, parsed.values)) ?? EXIT.ok;
  } catch (error) {
    const rendered = renderError(error);
    writeLine(io.stderr, rendered.line);
    if (rendered.code === EXIT.usage) writeLine(io.stderr, rendered.usage ?? GLOBAL_USAGE);
    return rendered.code;
  }
}
