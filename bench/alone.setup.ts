// Each bench file runs alone (vitest.config.ts: project bench, one file at a time), so no figure carries another
// bench's load; each says so, and the load it started under, before its first figure.
import { cpus, loadavg } from "node:os";
import { beforeAll } from "vitest";

beforeAll((file) => {
  // vitest hands a setup file's beforeAll the test file's suite; its name is the file's path.
  const name = (file as { name?: string }).name ?? "(unnamed)";
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(" / ");
  console.log(`bench ${name}: alone (one bench file at a time); load ${load} (1/5/15 min) on ${cpus().length} cores at its start`);
});
