// Ports for the servers the e2e suites start (wrangler dev, its inspector, `npm run dev`).
import { createServer } from "node:net";

/**
 * A free port below the kernel's ephemeral range (32768-60999 on Linux). A port the OS hands out for `listen(0)`
 * is one it may hand to any other socket a moment later (a wireguard-go, another wrangler's workerd): a timed
 * NAT suite once lost its server to that race ("Address already in use"). Below the range, only another
 * caller of this function can pick the same port, and the bind check catches one that is already taken.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canBind(port)) return port;
  }
  throw new Error("no free port in 20000-31999 after 50 tries");
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
