// The API as a laptop behind NAT reaches it: on a public address of the lab's internet, with Cloudflare's edge
// in between, which sets CF-Connecting-IP to the address the TCP connection came from. For a laptop that is
// its router's WAN address (the "public" hint the server keeps beside the candidates), not 127.0.0.1, which
// every request from the test process would otherwise share.
//
// Two pieces, because the Worker (wrangler dev) listens on 127.0.0.1 of the root namespace, which the lab's
// namespaces cannot reach: a listener inside the api host's namespace (a Node child) that stamps the header
// and forwards each request over a Unix socket (the filesystem is shared across network namespaces), and, in
// this process, that socket piped to the Worker's port.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onAbruptExit, OutputTail, waitFor } from "../support/command.ts";
import type { Host } from "../support/netns.ts";

// argv: port, unix socket. Streams both ways (the config long poll holds a request open for seconds).
const LISTENER = `
const http = require("node:http");
const [port, socketPath] = process.argv.slice(1);
const server = http.createServer((request, response) => {
  const peer = request.socket.remoteAddress.replace(/^::ffff:/, "");
  const headers = { ...request.headers, "cf-connecting-ip": peer, connection: "close" };
  // agent: false, a connection per request: a kept-alive one that workerd closed while idle fails the next
  // request with "socket hang up" (Node 20's global agent keeps connections alive).
  const upstream = http.request({ socketPath, method: request.method, path: request.url, headers, agent: false }, (answer) => {
    response.writeHead(answer.statusCode, answer.headers);
    answer.pipe(response);
  });
  upstream.on("error", (error) => { response.writeHead(502).end(String(error)); });
  request.pipe(upstream);
});
server.requestTimeout = 0;
server.listen(Number(port), "0.0.0.0", () => console.log("listening"));
process.on("SIGTERM", () => process.exit(0));
`;

export interface EdgeProxy {
  /** The API origin as the lab's hosts reach it, e.g. http://198.51.100.3:8080. */
  url: string;
  stop(): Promise<void>;
}

export async function startEdgeProxy(api: Host, apiAddress: string, workerBaseUrl: string, port = 8080): Promise<EdgeProxy> {
  const dir = mkdtempSync(join(tmpdir(), "nat-edge-"));
  const socketPath = join(dir, "api.sock");
  const worker = new URL(workerBaseUrl);
  const open = new Set<{ destroy(): void }>();
  const bridge: Server = createServer((client) => {
    const upstream = createConnection(Number(worker.port), worker.hostname);
    client.pipe(upstream).pipe(client);
    open.add(client);
    const close = () => {
      open.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", close);
    client.on("error", close);
    upstream.on("error", close);
  });
  await new Promise<void>((resolve) => bridge.listen(socketPath, resolve));

  const output = new OutputTail();
  const child: ChildProcess = spawn("ip", ["netns", "exec", api.namespace, process.execPath, "-e", LISTENER, String(port), socketPath], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => output.append(chunk));
  child.stderr!.on("data", (chunk) => output.append(chunk));
  // A run stopped before afterAll: the listener's namespace goes (netns.ts), the socket's directory here.
  const unregister = onAbruptExit(() => rmSync(dir, { recursive: true, force: true }));
  const stop = async () => {
    unregister();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    for (const socket of open) socket.destroy(); // a held long poll would keep close() waiting
    await new Promise<void>((resolve) => bridge.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor("the edge listener in the api namespace", () => String(output).includes("listening"), {
      timeoutMs: 10_000,
      details: () => String(output),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://${apiAddress}:${port}`, stop };
}
