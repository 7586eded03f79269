import { createApp } from "./app";
import { createConsole } from "./console";
import { isDevCronTrigger, runDevCron } from "./dev-cron-trigger";
import { devD1Meter, isDevD1Meter } from "./dev-d1-meter";
import { scheduled } from "./scheduled";

// The writers live with their domain (objects/network/, docs/architecture.md); the runtime finds them here.
export { GroupWriter } from "./objects/group/group-writer";
export { NetworkWriter } from "./objects/network/network-writer";
export { Throttle } from "./objects/throttle/throttle";

const api = createApp();
// The console calls the API in-process: the same app, the same checks, no network hop.
const consoleApp = createConsole((request, env, ctx) => api.fetch(request, env, ctx));

/** Everything under /api belongs to the API (its 404s included); the rest of the origin is the console. */
const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

export default {
  fetch: (request, env, ctx) => {
    if (isDevCronTrigger(request, env)) return runDevCron(env);
    if (isDevD1Meter(request, env)) return devD1Meter();
    return isApiPath(new URL(request.url).pathname) ? api.fetch(request, env, ctx) : consoleApp.fetch(request, env, ctx);
  },
  // Cron Trigger (wrangler.toml): offline, gateway and drift detection, then notification deliveries.
  scheduled,
} satisfies ExportedHandler<Cloudflare.Env>;
