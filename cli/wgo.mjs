#!/usr/bin/env node
// wgo: the command-line client of the overlay control plane. Plain Node 20, no dependencies; see docs/cli.md.
import { main } from "./main.mjs";

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
