// The command line: `wgo [global options] <command> [options]`, global options also allowed after the
// command. node:util parseArgs does the flag parsing; this file adds commands, required flags, help
// text and turns every parse failure into a UsageError (exit 2) that carries the command's usage line.
import { parseArgs } from "node:util";
import { UsageError } from "./errors.mjs";

/** @typedef {{ type: "string" | "boolean", short?: string, value?: string, help: string }} OptionSpec */
/**
 * @typedef {{ name: string, summary: string, usage: string, options: Record<string, OptionSpec>,
 *   required?: string[], run: (ctx: any, values: Record<string, any>) => Promise<number | void> }} Command
 */

/** @typedef {Command | Group | "general"} Topic what help was asked about */
/** @typedef {{ group: string, members: Command[] }} Group a command family (`gateway`, `access`): two-word commands sharing a first word */

/** @type {Record<string, OptionSpec>} */
export const GLOBAL_OPTIONS = {
  api: { type: "string", value: "URL", help: "API origin (env WGO_API; default: the logged-in API, else http://127.0.0.1:8787)" },
  home: { type: "string", value: "DIR", help: "state directory (env WGO_HOME; default ~/.config/wgo)" },
  json: { type: "boolean", help: "print results as one JSON object per line" },
  help: { type: "boolean", short: "h", help: "show help" },
  version: { type: "boolean", help: "print wgo's version" },
};

export const GLOBAL_USAGE = "usage: wgo [--api URL] [--home DIR] [--json] <command> [options]   (wgo --help)";

/**
 * @param {string[]} argv
 * @param {Record<string, Command>} commands
 * @returns {{ command?: Command, values: Record<string, any>, topic?: Topic }}
 *   `topic` is set when help was asked for instead of a run.
 */
export function parseCommandLine(argv, commands) {
  const split = argv.findIndex((arg, index) => !arg.startsWith("-") && !isGlobalValue(argv, index));
  const leading = split < 0 ? argv : argv.slice(0, split);
  const globals = parseOrThrow(leading, GLOBAL_OPTIONS, GLOBAL_USAGE);
  if (split < 0) {
    if (globals.help || globals.version) return { values: globals, topic: "general" };
    throw new UsageError("no command given", GLOBAL_USAGE);
  }
  let name = argv[split];
  let rest = argv.slice(split + 1);
  // Two-word commands (`gateway run`): the second word is part of the name.
  if (rest[0] && !rest[0].startsWith("-") && commands[`${name} ${rest[0]}`]) {
    name = `${name} ${rest[0]}`;
    rest = rest.slice(1);
  }
  if (name === "help") {
    if (rest[1] && commands[`${rest[0]} ${rest[1]}`]) return { values: globals, topic: commands[`${rest[0]} ${rest[1]}`] };
    const topic = rest[0] ? (commands[rest[0]] ?? groupOf(rest[0], commands)) : undefined;
    if (rest[0] && !topic) throw new UsageError(`unknown command "${rest[0]}"`, GLOBAL_USAGE);
    return { values: globals, topic: topic ?? "general" };
  }
  const command = commands[name];
  const group = command ? undefined : groupOf(name, commands);
  if (group) {
    // `wgo gateway --help` is a question about the group: its commands, a line each (exit 0).
    if (globals.help || rest.includes("--help") || rest.includes("-h")) return { values: globals, topic: group };
    const names = group.members.map((member) => member.name.split(" ")[1]).join(", ");
    throw new UsageError(`"${name}" needs one of: ${names}`, helpText(group, commands));
  }
  if (!command) throw new UsageError(`unknown command "${name}"`, GLOBAL_USAGE);
  const usage = `usage: ${command.usage}`;
  const values = { ...globals, ...parseOrThrow(rest, { ...GLOBAL_OPTIONS, ...command.options }, usage) };
  if (values.help) return { command, values, topic: command };
  for (const flag of command.required ?? []) {
    if (values[flag] === undefined || values[flag] === "") throw new UsageError(`--${flag} is required`, usage);
  }
  return { command, values };
}

/** A token that is the value of a leading global option (`--api URL`) is not the command name. */
function isGlobalValue(argv, index) {
  const previous = argv[index - 1];
  if (!previous?.startsWith("--") || previous.includes("=")) return false;
  return GLOBAL_OPTIONS[previous.slice(2)]?.type === "string";
}

function parseOrThrow(args, specs, usage) {
  const options = Object.fromEntries(
    Object.entries(specs).map(([key, spec]) => [key, spec.short ? { type: spec.type, short: spec.short } : { type: spec.type }]),
  );
  try {
    return { ...parseArgs({ args, options, strict: true, allowPositionals: false }).values };
  } catch (error) {
    // parseArgs messages are good ("Unknown option '--nmae'"); keep their first sentence.
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0].split(". ")[0].replace(/\.$/, "");
    throw new UsageError(message.replace(/^Unknown option/, "unknown option"), usage);
  }
}

/** The family `name` heads (`gateway`: gateway enrol, run, status, down), or undefined. @returns {Group | undefined} */
function groupOf(name, commands) {
  const members = Object.values(commands).filter((command) => command.name.startsWith(`${name} `));
  return members.length > 0 ? { group: name, members } : undefined;
}

/** @param {Topic} topic @param {Record<string, Command>} commands */
export function helpText(topic, commands) {
  if (topic === "general") {
    const width = Math.max(...Object.keys(commands).map((name) => name.length));
    return [
      "wgo: the command-line client of the WireGuard overlay control plane",
      "",
      GLOBAL_USAGE,
      "",
      "commands:",
      ...Object.values(commands).map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
      "",
      "global options:",
      ...optionLines(GLOBAL_OPTIONS),
      "",
      "exit codes: 0 ok, 1 API or operation error, 2 usage error, 3 a daemon's credential was refused. `wgo <command> --help` for details.",
    ].join("\n");
  }
  if ("group" in topic) {
    const width = Math.max(...topic.members.map((member) => member.name.length));
    return [
      `usage: wgo ${topic.group} <command> [options]`,
      "",
      "commands:",
      ...topic.members.map((member) => `  ${member.name.padEnd(width)}  ${member.summary}`),
      "",
      `\`wgo ${topic.group} <command> --help\` for a command's options.`,
    ].join("\n");
  }
  return [
    `usage: ${topic.usage}`,
    "",
    topic.summary,
    "",
    // A command without options of its own (`wgo networks`) gets no empty heading.
    ...(Object.keys(topic.options).length > 0 ? ["options:", ...optionLines(topic.options), ""] : []),
    "global options:",
    ...optionLines(GLOBAL_OPTIONS),
  ].join("\n");
}

function optionLines(specs) {
  const labels = Object.entries(specs).map(([key, spec]) => [
    `${spec.short ? `-${spec.short}, ` : ""}--${key}${spec.value ? ` ${spec.value}` : ""}`,
    spec.help,
  ]);
  const width = Math.max(0, ...labels.map(([label]) => label.length));
  return labels.map(([label, help]) => `  ${label.padEnd(width)}  ${help}`);
}

// Shared validators: a bad value is a usage error, caught before anything touches the network.

const DEVICE_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Device names become file names and DNS labels, so only lowercase DNS labels pass. */
export function deviceName(value, usage) {
  if (!DEVICE_NAME.test(value)) throw new UsageError(`--name "${value}" must be a lowercase DNS label (a-z, 0-9, inner hyphens)`, usage);
  return value;
}

/** Linux interface names: at most 15 bytes, no slash or whitespace. */
export function interfaceName(value, usage) {
  if (!/^[A-Za-z0-9_.=+-]{1,15}$/.test(value))
    throw new UsageError(`--interface "${value}" is not a valid interface name (1-15 of A-Z a-z 0-9 _ . = + -)`, usage);
  return value;
}

export function netnsName(value, usage) {
  if (value !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(value))
    throw new UsageError(`--netns "${value}" is not a valid namespace name`, usage);
  return value;
}

export function oneOf(flag, value, allowed, usage) {
  if (!allowed.includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(", ")}, not "${value}"`, usage);
  return value;
}

export function positiveInteger(flag, value, usage) {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${flag} must be a whole number of seconds ≥ 1, not "${value}"`, usage);
  return Number(value);
}
