import { createApp } from "./app";

export { NetworkWriter } from "./durable-objects/network-writer";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Cloudflare.Env>;
