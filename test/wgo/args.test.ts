// The command line: every command parses, shows help, and every mistake is exit 2 with a usage line,
// found before anything touches the network or the state directory.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cli, runWgo, tempHome } from "./support/cli.ts";

const COMMANDS = ["login", "logout", "networks", "enrol", "config", "up", "down", "status", "heartbeat", "install-service"];

describe("wgo command line", () => {
  it("prints general help listing every command, exit 0", async () => {
    for (const args of [["--help"], ["-h"], ["help"]]) {
      const result = await runWgo(args);
      expect(result.code).toBe(0);
      for (const name of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
      expect(result.stdout).toContain("exit codes: 0 ok, 1 API or operation error, 2 usage error");
    }
  });

  it.each(COMMANDS)("`%s --help` and `help %s` show the command's usage and options", async (name) => {
    for (const args of [
      [name, "--help"],
      ["help", name],
    ]) {
      const result = await runWgo(args);
      expect(result.code).toBe(0);
      expect(result.stdout.split("\n")[0]).toMatch(new RegExp(`^usage: wgo ${name}\\b`));
      expect(result.stdout).toContain("--home DIR");
    }
  });

  it.each([
    ["gateway", ["enrol", "run", "status", "down"]],
    ["access", ["show", "check"]],
  ])("help on the command group `%s` lists its commands with a line each, exit 0 (issue 47)", async (group, members) => {
    for (const args of [
      [group, "--help"],
      [group, "-h"],
      ["help", group],
      ["--help", group],
    ]) {
      const result = await runWgo(args);
      expect(result.code, args.join(" ")).toBe(0);
      expect(result.stderr).toBe("");
      expect(result.stdout.split("\n")[0]).toBe(`usage: wgo ${group} <command> [options]`);
      for (const member of members) expect(result.stdout).toMatch(new RegExp(`^  ${group} ${member} +\\S`, "m"));
    }
    // Without a command of the group it is still a usage error, with the same list as its usage.
    const bare = await runWgo([group]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(new RegExp(`^error: "${group}" needs one of: ${members.join(", ")}\nusage: wgo ${group} <command>`));
  });

  it("a command without options of its own shows no empty options heading", async () => {
    const result = await runWgo(["networks", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/^options:$/m);
    expect(result.stdout).toMatch(/^global options:$/m);
    expect(result.stdout).not.toMatch(/\n\n\n/);
  });

  it("prints the version, which is package.json's", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect((await runWgo(["--version"])).stdout.trim()).toBe(`wgo ${version}`);
  });

  const mistakes: Array<[string[], RegExp, string]> = [
    [[], /^error: no command given$/, "usage: wgo [--api URL]"],
    [["frobnicate"], /^error: unknown command "frobnicate"$/, "usage: wgo [--api URL]"],
    [["help", "frobnicate"], /^error: unknown command "frobnicate"$/, "usage: wgo [--api URL]"],
    [["--bogus", "status"], /^error: unknown option '--bogus'/, "usage: wgo [--api URL]"],
    [["login"], /^error: --email is required$/, "usage: wgo login "],
    [["login", "--email"], /^error: Option '--email' argument is ambiguous$/, "usage: wgo login "],
    [["login", "--email", "a@e.test", "--pasword", "x"], /^error: unknown option '--pasword'/, "usage: wgo login "],
    [["login", "--email", "a@e.test", "--password", "x", "--password-stdin"], /not both/, "usage: wgo login "],
    [["login", "--email", "a@e.test"], /^error: no password: give --password-stdin/, "usage: wgo login "],
    [["logout", "now"], /^error: Unexpected argument 'now'/, "usage: wgo logout"],
    [["enrol", "--network", "net_1"], /^error: --name is required$/, "usage: wgo enrol "],
    [["enrol", "--name", "laptop"], /^error: --network is required unless --enrolment-key is given$/, "usage: wgo enrol "],
    [["enrol", "--name", "../etc", "--network", "n"], /must be a lowercase DNS label/, "usage: wgo enrol "],
    [["config"], /^error: --name is required$/, "usage: wgo config "],
    [["config", "--name", "Laptop"], /must be a lowercase DNS label/, "usage: wgo config "],
    [["up", "--name", "x", "--method", "magic"], /^error: --method must be one of auto, wg-quick, setconf, not "magic"$/, "usage: wgo up "],
    [["up", "--name", "x", "--interface", "a-very-long-name0"], /is not a valid interface name/, "usage: wgo up "],
    [["down", "--name", "x", "--netns", "a/b"], /is not a valid namespace name/, "usage: wgo down "],
    [["status", "--name", "a b"], /must be a lowercase DNS label/, "usage: wgo status"],
    [["heartbeat", "--name", "x", "--interval", "0"], /--interval must be a whole number of seconds/, "usage: wgo heartbeat "],
    [["heartbeat", "--name", "x", "--once", "yes"], /^error: Unexpected argument 'yes'/, "usage: wgo heartbeat "],
    [["--api", "ftp://example.test", "status"], /must be http or https/, "usage: wgo [--api URL]"],
    [["status", "--api", "not a url"], /is not a URL/, "usage: wgo [--api URL]"],
  ];

  it.each(mistakes)("wgo %j is a usage error (exit 2) with one error line and a usage line", async (args, error, usage) => {
    const { home, remove } = tempHome();
    try {
      const result = await runWgo([...args, ...(args.length ? ["--home", home] : [])]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(error);
      expect(lines[1]!.startsWith(usage)).toBe(true);
    } finally {
      remove();
    }
  });

  it("takes global options before or after the command, and WGO_HOME / WGO_API from the environment", async () => {
    const { home, remove } = tempHome();
    try {
      const expected = `error: no devices enrolled under ${home}: run \`wgo enrol\` first\n`;
      for (const [args, env] of [
        [["--home", home, "status"], {}],
        [["status", "--home", home], {}],
        [["--api", "http://127.0.0.1:1", "--home", home, "--json", "status"], {}],
        [["status"], { WGO_HOME: home, WGO_API: "http://127.0.0.1:1/api/v1/" }],
      ] as const) {
        const result = await runWgo([...args], { env: { ...env } });
        if ((args as readonly string[]).includes("--json")) {
          // --json errors are one object on stdout (docs/cli.md), the same message and exit code.
          expect(result.json).toEqual([{ error: { code: "operation_failed", message: expected.slice(7, -1) } }]);
          expect(result.stderr).toBe("");
        } else expect(result.stderr).toBe(expected);
        expect(result.code).toBe(1);
      }
    } finally {
      remove();
    }
  });

  it("normalises --api: trailing slash and /api/v1 are optional", () => {
    for (const value of ["http://h.test:8787", "http://h.test:8787/", "http://h.test:8787/api/v1", "http://h.test:8787/api/v1/"]) {
      expect(cli.http.normalizeApi(value)).toBe("http://h.test:8787");
    }
  });
});
