// globalSetup of the e2e project: the Worker is bundled (`wrangler deploy --dry-run`) and a local D1 migrated
// once per run instead of once per suite; startWorker copies the migrated state into each server's own
// directory. Both steps start wrangler (the migration starts workerd too): several seconds each, 19 suites.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { prepareWorker } from "./worker-server.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "overlay-e2e-template-"));
  try {
    // Once per run, while the workerd suites start beside it (scripts/test.mjs) on a busy machine: the
    // migration (wrangler starts workerd to apply it) took over 120 s at load 13-16, so it gets 10 minutes.
    await prepareWorker(dir, 600_000);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  project.provide("e2eWorkerTemplate", dir);
  return () => rm(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The directory with the bundled Worker (bundle/) and a migrated local D1 (state/). */
    e2eWorkerTemplate: string;
  }
}
