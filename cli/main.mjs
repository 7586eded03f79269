// Dispatch: parse the command line, build the context every command gets, run it, and turn whatever
// it throws into one line on stderr (with --json: one JSON object on stdout) and an exit code (0 ok,
// 1 API/operation error, 2 usage error, 3 a daemon's credential refused).
import { GLOBAL_USAGE, helpText, parseCommandLine } from "./args.mjs";
import { accessCheck, accessShow } from "./commands/access.mjs";
import { config } from "./commands/config.mjs";
import { enrol } from "./commands/enrol.mjs";
import { gatewayEnrol, gatewayRun, gatewayStatus } from "./commands/gateway.mjs";
import { gatewayDown } from "./commands/gateway-down.mjs";
import { heartbeat } from "./commands/heartbeat.mjs";
import { installService } from "./commands/install-service.mjs";
import { down } from "./commands/link.mjs";
import { login, logout } from "./commands/login.mjs";
import { networks } from "./commands/networks.mjs";
import { status } from "./commands/status.mjs";
import { up } from "./commands/up.mjs";
import { version } from "./commands/version.mjs";
import { EXIT } from "./errors.mjs";
import { describeFailure, errorJson, errorLine } from "./failures.mjs";
import { resolveHome } from "./files.mjs";
import { normalizeApi } from "./http.mjs";
import { createSystem } from "./system.mjs";
import { VERSION } from "./version.mjs";

export const DEFAULT_API = "http://127.0.0.1:8787";

export const COMMANDS = Object.fromEntries(
  [
    login,
    logout,
    networks,
    enrol,
    config,
    up,
    down,
    status,
    heartbeat,
    accessShow,
    accessCheck,
    installService,
    gatewayEnrol,
    gatewayRun,
    gatewayStatus,
    gatewayDown,
    version,
  ].map((c) => [c.name, c]),
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
  // Known before parsing, so a usage error is JSON too; `--` ends the options (nothing after it counts).
  const endOfOptions = argv.indexOf("--");
  const json = (endOfOptions < 0 ? argv : argv.slice(0, endOfOptions)).includes("--json");
  try {
    const parsed = parseCommandLine(argv, COMMANDS);
    if (parsed.topic) {
      writeLine(io.stdout, parsed.values.version && !parsed.values.help ? `wgo ${VERSION}` : helpText(parsed.topic, COMMANDS));
      return EXIT.ok;
    }
    const explicitApi = parsed.values.api ?? io.env.WGO_API;
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
      /** A failure a daemon survives (a network blip): reported like a fatal one, on stderr. */
      reportError: (error) => writeLine(io.stderr, errorLine(describeFailure(error))),
    };
    const exitCode = await parsed.command.run(ctx, parsed.values);
    return typeof exitCode === "number" ? exitCode : EXIT.ok;
  } catch (error) {
    const failure = describeFailure(error);
    if (failure.exit === EXIT.usage) failure.usage ??= GLOBAL_USAGE;
    // With --json the failure is one object on stdout, where scripts already read every result from.
    if (json) writeLine(io.stdout, JSON.stringify(errorJson(failure)));
    else {
      writeLine(io.stderr, errorLine(failure));
      if (failure.usage) writeLine(io.stderr, failure.usage);
    }
    return failure.exit;
  }
}
