// Oversized bodies over real HTTP against `wrangler dev`, to the API and to the console's forms: the 413 must
// leave the server healthy.
// A body refused while it was still streaming in once left the connection mid-request; the dev proxy's
// pooled connection to the Worker died with it, and the refused request and unrelated ones after it
// answered 503 "Your worker restarted mid-request" (src/middleware/body-limit.ts says why).
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login } from "../support/api-client.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";

interface Answer {
  status: number;
  body: string;
}

const LIMIT = 64 * 1024;
const CHUNK = 16 * 1024;
/** A stuck connection is a failure to list, not a test timeout. */
const ANSWER_WITHIN_MS = 15_000;

/**
 * One POST on a connection of its own (no agent: nothing is shared with the other requests), the body
 * either chunked (no Content-Length) or with its length declared. Connection errors reject.
 */
function send(baseUrl: string, path: string, body: Buffer, options: { chunked: boolean; token?: string; form?: boolean }): Promise<Answer> {
  const url = new URL(options.form ? path : `/api/v1${path}`, baseUrl);
  const headers: Record<string, string> = { "content-type": options.form ? "application/x-www-form-urlencoded" : "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (!options.chunked) headers["content-length"] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(ANSWER_WITHIN_MS, () => req.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)));
    void (async () => {
      for (let offset = 0; offset < body.length && !req.destroyed; offset += CHUNK) {
        if (!req.write(body.subarray(offset, offset + CHUNK))) await new Promise((drained) => req.once("drain", drained));
      }
      req.end();
    })().catch(reject);
  });
}

/** A JSON body of exactly `bytes` bytes (a long string field), so only its size is wrong. */
const jsonOf = (bytes: number) => Buffer.from(`{"name":"${"x".repeat(bytes - 11)}"}`);
/** A console form body of exactly `bytes` bytes. */
const formOf = (bytes: number) => Buffer.from(`email=${"x".repeat(bytes - 6)}`);

/** A GET of a console page on a connection of its own. */
function page(baseUrl: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl);
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "GET", agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: "" }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(ANSWER_WITHIN_MS, () => req.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)));
    req.end();
  });
}

describe("the body limit over real HTTP", () => {
  let server: WorkerServer;
  let token: string;

  beforeAll(async () => {
    server = await startWorker();
    token = await login(server.baseUrl, server.admin);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Every answer that is not the expected one, as "label: status or error" (an empty list is a pass). */
  const failures: string[] = [];
  const expectAnswer = async (label: string, expected: { status: number; code?: string }, answer: Promise<Answer>) => {
    try {
      const { status, body } = await answer;
      const code = status === expected.status && expected.code ? JSON.parse(body).error?.code : expected.code;
      if (status !== expected.status || code !== expected.code) failures.push(`${label}: ${status} ${body.slice(0, 80)}`);
    } catch (error) {
      failures.push(`${label}: ${(error as Error).message}`);
    }
  };
  const tooLarge = (label: string, path: string, body: Buffer, options: { chunked: boolean; token?: string }) =>
    expectAnswer(label, { status: 413, code: "payload_too_large" }, send(server.baseUrl, path, body, options));
  const createGroup = (label: string) =>
    expectAnswer(
      label,
      { status: 201 },
      send(server.baseUrl, "/groups", Buffer.from(JSON.stringify({ name: label })), { chunked: false, token }),
    );

  it("oversized chunked and declared bodies are 413, and every ordinary request after them succeeds", async () => {
    failures.length = 0;
    for (let round = 0; round < 8; round++) {
      await Promise.all([
        tooLarge(`${round} chunked 64 KiB + 1`, "/groups", jsonOf(LIMIT + 1), { chunked: true, token }),
        tooLarge(`${round} chunked 200 KiB`, "/groups", jsonOf(200 * 1024), { chunked: true, token }),
        tooLarge(`${round} chunked 1 MiB, anonymous`, "/auth/login", jsonOf(1024 * 1024), { chunked: true }),
        tooLarge(`${round} declared 200 KiB`, "/groups", jsonOf(200 * 1024), { chunked: false, token }),
      ]);
      // Other connections, right after: the refusals must not have taken the server's connections down.
      await Promise.all([1, 2, 3].map((n) => createGroup(`after-${round}-${n}`)));
    }
    expect(failures).toEqual([]);
  });

  it("ordinary requests sent while oversized ones stream in all succeed", async () => {
    failures.length = 0;
    for (let round = 0; round < 5; round++) {
      await Promise.all([
        tooLarge(`${round} chunked 512 KiB`, "/groups", jsonOf(512 * 1024), { chunked: true, token }),
        tooLarge(`${round} declared 512 KiB`, "/groups", jsonOf(512 * 1024), { chunked: false, token }),
        createGroup(`during-${round}-1`),
        createGroup(`during-${round}-2`),
      ]);
    }
    expect(failures).toEqual([]);
  });

  it("the console: oversized chunked and declared forms are 413, and every ordinary request after and beside them succeeds", async () => {
    failures.length = 0;
    const formTooLarge = (label: string, body: Buffer, chunked: boolean) =>
      expectAnswer(label, { status: 413 }, send(server.baseUrl, "/sign-in", body, { chunked, form: true }));
    const signInPage = (label: string) => expectAnswer(label, { status: 200 }, page(server.baseUrl, "/sign-in"));
    for (let round = 0; round < 8; round++) {
      await Promise.all([
        formTooLarge(`${round} form chunked 64 KiB + 1`, formOf(LIMIT + 1), true),
        formTooLarge(`${round} form chunked 512 KiB`, formOf(512 * 1024), true),
        formTooLarge(`${round} form declared 512 KiB`, formOf(512 * 1024), false),
        signInPage(`during-${round}`),
        createGroup(`console-during-${round}`),
      ]);
      await Promise.all([signInPage(`after-${round}-1`), signInPage(`after-${round}-2`), createGroup(`console-after-${round}`)]);
    }
    expect(failures).toEqual([]);
  });

  it("a body of exactly the limit, chunked, still passes", async () => {
    const answer = await send(server.baseUrl, "/groups", jsonOf(LIMIT), { chunked: true, token });
    // Past the body limit: the schema refuses the over-long name (422), not the size (413).
    expect(answer.status, answer.body).toBe(422);
    expect(JSON.parse(answer.body).error.code).toBe("VALIDATION_ERROR");
  });
});
