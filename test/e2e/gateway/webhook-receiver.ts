// A webhook endpoint on 127.0.0.1 that keeps what the Worker posts to it (WEBHOOK_ALLOW_HTTP_LOOPBACK lets
// a webhook channel target loopback in tests): notifications seen as an operator's receiver sees them.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface WebhookReceiver {
  url: string;
  received: Array<{ event: string; body: any }>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: WebhookReceiver["received"] = [];
  const server = createServer(async (request, response) => {
    let text = "";
    for await (const chunk of request) text += chunk;
    received.push({ event: String(request.headers["x-overlay-event"] ?? ""), body: JSON.parse(text || "null") });
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
