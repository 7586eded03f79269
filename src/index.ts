import { createApp } from "./app";
import { scheduled } from "./scheduled";

export { NetworkWriter } from "./durable-objects/network-writer";
export { Throttle } from "./durable-objects/throttle";

const app = createApp();

export default {
  fetch: app.fetch,
  // Cron Trigger (wrangler.toml): offline, gateway and drift detection, then notification deliveries.
  scheduled,
} satisfies ExportedHandler<Cloudflare.Env>;
