import { createApp } from "./app";
import { isDevCronTrigger, runDevCron } from "./dev-cron-trigger";
import { scheduled } from "./scheduled";

export { NetworkWriter } from "./durable-objects/network-writer";
export { Throttle } from "./durable-objects/throttle";

const app = createApp();

export default {
  fetch: (request, env, ctx) => (isDevCronTrigger(request, env) ? runDevCron(env) : app.fetch(request, env, ctx)),
  // Cron Trigger (wrangler.toml): offline, gateway and drift detection, then notification deliveries.
  scheduled,
} satisfies ExportedHandler<Cloudflare.Env>;
