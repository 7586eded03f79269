// globalSetup of the e2e projects: the Worker is bundled (`wrangler deploy --dry-run`) and a local D1 migrated
// once per run instead of once per suite; startWorker copies the migrated state into each server's own
// directory. Both steps start wrangler (the migration starts workerd too): several seconds each, 19 suites.
// Both e2e projects (e2e-web, e2e) name this file; vitest runs it once per project in its own process, so the
// template is made once and shared through that process, and removed when the last project is done with it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { prepareWorker } from "./worker-server.ts";

interface SharedTemplate {
  dir: Promise<string>;
  users: number;
}
const shared = globalThis as typeof globalThis & { e2eWorkerTemplate?: SharedTemplate };

async function makeTemplate(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "overlay-e2e-template-"));
  try {
    // On a busy machine the migration (wrangler starts workerd to apply it) took over 120 s at load 13-16,
    // so it gets 10 minutes.
    await prepareWorker(dir, 600_000);
    return dir;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.e2eWorkerTemplate ??= { dir: makeTemplate(), users: 0 };
  const template = shared.e2eWorkerTemplate;
  template.users++;
  project.provide("e2eWorkerTemplate", await template.dir);
  return async () => {
    if (--template.users > 0) return;
    shared.e2eWorkerTemplate = undefined;
    await rm(await template.dir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The directory with the bundled Worker (bundle/) and a migrated local D1 (state/). */
    e2eWorkerTemplate: string;
  }
}
