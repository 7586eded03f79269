// Every way the API can fail becomes one line on stderr built from its error envelope, and exit 1.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelope, startFakeApi, type FakeAnswer, type FakeApi } from "./support/fake-api.ts";
import { runWgo, tempHome } from "./support/cli.ts";

// The login route answers whatever the email's local part names, so one server plays every failure.
const ANSWERS: Record<string, FakeAnswer> = {
  s401: { status: 401, body: envelope("unauthorized", "Invalid email or password") },
  s403: { status: 403, body: envelope("forbidden", "You may not perform this action") },
  s404: { status: 404, body: envelope("not_found", "Network not found") },
  s409: { status: 409, body: envelope("conflict", 'A node named "laptop" already exists') },
  s422: {
    status: 422,
    body: envelope("VALIDATION_ERROR", "The request body is not valid", [
      { path: "publicKey", message: "A WireGuard public key: 32 bytes in base64 (44 characters)" },
      { path: "name", message: "A DNS label: letters, digits and inner hyphens" },
    ]),
  },
  s400: { status: 400, body: envelope("validation_error", "The enrolment key belongs to another network") },
  s429: { status: 429, body: envelope("rate_limited", "Too many attempts"), headers: { "retry-after": "42" } },
  s500: { status: 500, body: envelope("internal", "Internal error") },
  s502: { status: 502, body: "<html>Bad Gateway</html>", headers: { "content-type": "text/html" } },
};

const EXPECTED: Array<[string, string]> = [
  [
    "s401",
    "error: 401 unauthorized: Invalid email or password; the email or password is wrong for API: check both (and that the account exists there)",
  ],
  ["s403", "error: 403 forbidden: You may not perform this action"],
  ["s404", "error: 404 not_found: Network not found"],
  ["s409", 'error: 409 conflict: A node named "laptop" already exists'],
  [
    "s422",
    "error: 422 VALIDATION_ERROR: The request body is not valid (publicKey: A WireGuard public key: 32 bytes in base64 (44 characters); name: A DNS label: letters, digits and inner hyphens)",
  ],
  ["s400", "error: 400 validation_error: The enrolment key belongs to another network"],
  ["s429", "error: 429 rate_limited: Too many attempts (retry after 42 s)"],
  ["s500", "error: 500 internal: Internal error"],
  ["s502", "error: 502 http_error: <html>Bad Gateway</html>"],
];

describe("error rendering", () => {
  let api: FakeApi;
  const { home, remove } = tempHome();
  beforeAll(async () => {
    api = await startFakeApi({ "POST /auth/login": (request) => ANSWERS[request.body.email.split("@")[0]]! });
  });
  afterAll(async () => {
    await api.close();
    remove();
  });

  it.each(EXPECTED)("%s: one line from the envelope, exit 1, nothing on stdout", async (status, line) => {
    const result = await runWgo(["--api", api.url, "--home", home, "login", "--email", `${status}@e.test`, "--password", "pw"]);
    expect(result.stderr).toBe(`${line.replace("API", api.url)}\n`);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
  });

  it("a refused connection names the API and the socket error", async () => {
    const port = await closedPort();
    const result = await runWgo(["--api", `http://127.0.0.1:${port}`, "--home", home, "login", "--email", "a@e.test", "--password", "pw"]);
    expect(result.stderr).toBe(
      `error: cannot reach http://127.0.0.1:${port}: ECONNREFUSED; nothing accepts connections there: check the URL and port (--api or WGO_API) and that the control plane runs\n`,
    );
    expect(result.code).toBe(1);
  });

  it("an unknown host names the resolver error", async () => {
    const result = await runWgo(["--api", "http://wgo-test.invalid", "--home", home, "login", "--email", "a@e.test", "--password", "pw"]);
    expect(result.stderr).toMatch(
      /^error: cannot reach http:\/\/wgo-test\.invalid: (ENOTFOUND|EAI_AGAIN); the host name does not resolve: check its spelling \(--api or WGO_API\) and this machine's DNS\n$/,
    );
    expect(result.code).toBe(1);
  });

  it("a failed call leaves no session behind", async () => {
    await runWgo(["--api", api.url, "--home", home, "login", "--email", "s401@e.test", "--password", "pw"]);
    const result = await runWgo(["--home", home, "logout"]);
    expect(result.stdout).toBe("not logged in\n");
  });
});

/** A port that was free a moment ago: nothing listens there now. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
