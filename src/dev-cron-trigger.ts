import type { Env } from "./lib/env";
import { runScheduled } from "./scheduled";

/**
 * `GET /__scheduled` runs the Cron Trigger's work once and answers when it is done, in development only
 * (DEV_CRON_TRIGGER=true, which `npm run dev` and the e2e harness set). wrangler's own ways to do this fail
 * here: `/cdn-cgi/handler/scheduled` answers 500 once the Worker has static assets (its local asset router
 * has no scheduled handler), and `--test-scheduled`'s route needs wrangler's bundling.
 */
export const DEV_CRON_PATH = "/__scheduled";

export function isDevCronTrigger(request: Request, env: Env) {
  return env.DEV_CRON_TRIGGER === "true" && request.method === "GET" && new URL(request.url).pathname === DEV_CRON_PATH;
}

export async function runDevCron(env: Env): Promise<Response> {
  try {
    await runScheduled(env);
    return new Response("ok\n", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  } catch (error) {
    // The steps' own errors are logged by runScheduled; the answer says that one failed, as a cron run would.
    return new Response(`scheduled run failed: ${(error as Error).message}\n`, { status: 500, headers: { "Content-Type": "text/plain" } });
  }
}
