// A tiny node:http server that plays the API for CLI unit tests: routes keyed "METHOD /path" (paths
// without /api/v1), every request recorded with its bearer token and JSON body.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRequest {
  method: string;
  /** Without the query string, which is in `query`. */
  path: string;
  query: URLSearchParams;
  /** Request headers, lowercased names (If-None-Match and the like). */
  headers: Record<string, string | string[] | undefined>;
  token: string | null;
  body: any;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeRoute = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeApi {
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<any> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text ? JSON.parse(text) : undefined;
}

export async function startFakeApi(routes: Record<string, FakeRoute>): Promise<FakeApi> {
  const requests: FakeRequest[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://fake");
    const path = url.pathname.replace(/^\/api\/v1/, "");
    const authorization = request.headers.authorization ?? null;
    const recorded = {
      method: request.method ?? "",
      path,
      query: url.searchParams,
      headers: request.headers,
      token: authorization?.replace(/^Bearer /, "") ?? null,
      body: await readBody(request),
    };
    requests.push(recorded);
    const route = routes[`${recorded.method} ${path}`];
    const answer = route
      ? await route(recorded)
      : { status: 404, body: { error: { code: "not_found", message: `no fake route for ${recorded.method} ${path}` } } };
    const text = answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    response.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The error envelope every API route answers with. */
export const envelope = (code: string, message: string, fields?: Array<{ path: string; message: string }>) => ({
  error: { code, message, ...(fields ? { fields } : {}) },
});
