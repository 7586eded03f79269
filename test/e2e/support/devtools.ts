// A minimal Chrome DevTools Protocol client for the port `wrangler dev --inspector-port` opens (wrangler's
// inspector proxy in front of the Worker's isolate), over a WebSocket made by hand (node:http upgrade,
// text frames only): Node 20's WebSocket cannot send the Origin header that proxy insists on, and the
// project takes no dependency for its test harness.
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import type { Socket } from "node:net";

/**
 * Stops the runtime reporting the Worker's subrequests to the inspector. wrangler's inspector proxy turns
 * network reporting on when it connects to the runtime and keeps every event in memory until a DevTools
 * window attaches, which under `wrangler dev` is usually never: each D1 query is a subrequest to the
 * local D1 simulator and leaves four events behind, so a long run grows the proxy's workerd without end
 * (docs/memory.md). A DevTools window that attaches later turns reporting on again for itself.
 */
export async function muteNetworkEvents(inspectorPort: number): Promise<void> {
  const session = await openDevTools(inspectorPort);
  try {
    await session.send("Network.disable");
  } finally {
    session.close();
  }
}

/**
 * The methods of the events wrangler's inspector proxy was holding for a DevTools window: it replays
 * them on attach, before it forwards any command, so the events seen before a command's answer are those.
 */
export async function heldEvents(inspectorPort: number): Promise<string[]> {
  const session = await openDevTools(inspectorPort);
  try {
    await session.send("Runtime.getIsolateId");
    return session.events();
  } finally {
    session.close();
  }
}

export interface DevToolsSession {
  send(method: string, params?: object): Promise<unknown>;
  /** The methods of the events received so far (their parameters are not kept). */
  events(): string[];
  close(): void;
}

export function openDevTools(port: number): Promise<DevToolsSession> {
  return new Promise((resolve, reject) => {
    const upgrade = request({
      host: "127.0.0.1",
      port,
      path: "/ws",
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
        Origin: "http://127.0.0.1",
      },
    });
    upgrade.on("error", reject);
    upgrade.on("response", (response) => reject(new Error(`inspector refused the WebSocket: ${response.statusCode}`)));
    upgrade.on("upgrade", (_response, socket: Socket, head: Buffer) => {
      let nextId = 0;
      const events: string[] = [];
      const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
      readFrames(socket, head, (text) => {
        const message = JSON.parse(text) as { id?: number; method?: string; result?: unknown; error?: unknown };
        if (message.id === undefined) {
          if (message.method) events.push(message.method);
          return;
        }
        const waiter = waiting.get(message.id);
        if (!waiter) return;
        waiting.delete(message.id!);
        if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
        else waiter.resolve(message.result);
      });
      socket.on("close", () => {
        for (const waiter of waiting.values()) waiter.reject(new Error("inspector connection closed"));
      });
      resolve({
        send: (method, params = {}) =>
          new Promise((resolveCall, rejectCall) => {
            const id = ++nextId;
            waiting.set(id, { resolve: resolveCall, reject: rejectCall });
            socket.write(maskedFrame(0x1, Buffer.from(JSON.stringify({ id, method, params }))));
          }),
        events: () => [...events],
        close: () => {
          socket.end(maskedFrame(0x8, Buffer.alloc(0)));
          socket.destroy();
        },
      });
    });
    upgrade.end();
  });
}

/** Calls `onText` with each complete text message (fragments joined); answers pings. */
function readFrames(socket: Socket, head: Buffer, onText: (text: string) => void) {
  let pending = head;
  let fragments: Buffer[] = [];
  const consume = () => {
    for (;;) {
      if (pending.length < 2) return;
      const final = (pending[0]! & 0x80) !== 0;
      const opcode = pending[0]! & 0x0f;
      let length = pending[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (pending.length < 4) return;
        length = pending.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (pending.length < 10) return;
        length = Number(pending.readBigUInt64BE(2));
        offset = 10;
      }
      if (pending.length < offset + length) return;
      const payload = pending.subarray(offset, offset + length);
      pending = pending.subarray(offset + length);
      if (opcode === 0x9) socket.write(maskedFrame(0xa, payload));
      if (opcode !== 0x0 && opcode !== 0x1) continue;
      fragments.push(payload);
      if (!final) continue;
      const text = Buffer.concat(fragments).toString("utf8");
      fragments = [];
      onText(text);
    }
  };
  socket.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    consume();
  });
  consume();
}

/** A client frame must be masked (RFC 6455 5.3). */
function maskedFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x80 | opcode, 0x80 | length])
      : length < 65_536
        ? Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]), bigEndian64(length)]);
  const mask = randomBytes(4);
  const masked = Buffer.alloc(length);
  for (let i = 0; i < length; i++) masked[i] = payload[i]! ^ mask[i & 3]!;
  return Buffer.concat([header, mask, masked]);
}

function bigEndian64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
}
