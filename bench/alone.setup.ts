// Each bench file runs alone (vitest.config.ts: project bench, one file at a time), so no figure carries another
// bench's load; each says so, and the load it started under, before its first figure.
import { cpus, loadavg } from "node:os";
import { relative } from "node:path";
import { beforeAll, expect } from "vitest";

beforeAll(() => {
  const file = relative(process.cwd(), expect.getState().testPath ?? "(unknown file)");
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(" / ");
  console.log(`bench ${file}: alone (one bench file at a time); load ${load} (1/5/15 min) on ${cpus().length} cores at its start`);
});
