// The production mail transport (MAIL_TRANSPORT=http) against a relay on this machine: the Worker under
// `wrangler dev` POSTs Resend-shaped JSON with the bearer secret; a refusing relay never changes the
// password-reset answer, and an invite whose mail failed is revoked (502).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../../helpers/expect-error.ts";
import { byId, expectAnswer, login, typedApi } from "../support/api-client.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";

interface Received {
  authorization: string | undefined;
  body: { from: string; to: string[]; subject: string; text: string };
}

describe("HTTP mail transport", () => {
  let relay: Server;
  let server: WorkerServer;
  const received: Received[] = [];
  let refuse = false;
  const token = `relay-${crypto.randomUUID()}`;

  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = "";
      request.on("data", (chunk) => (data += chunk));
      request.on("end", () => resolve(data));
    });

  // The reset mail leaves after the answer (waitUntil), so it may reach the relay a moment later.
  const mailTo = async (email: string) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const mail = received.find((item) => item.body.to.includes(email));
      if (mail) return mail;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no mail reached the relay for ${email}`);
  };

  beforeAll(async () => {
    relay = createServer(async (request, response) => {
      received.push({ authorization: request.headers.authorization, body: JSON.parse(await read(request)) });
      response.statusCode = refuse ? 503 : 200;
      response.end(JSON.stringify({ id: "msg_1" }));
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    server = await startWorker({
      vars: {
        MAIL_TRANSPORT: "http",
        MAIL_HTTP_TOKEN: token,
        MAIL_FROM: "Overlay <no-reply@example.com>",
        MAIL_HTTP_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/emails`,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((resolve) => (relay ? relay.close(() => resolve()) : resolve()));
  });

  it("posts { from, to[], subject, text } with the bearer secret; no dev outbox", async () => {
    const admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    const email = `relay-${crypto.randomUUID().slice(0, 8)}@example.com`;
    expectAnswer(await admin.POST("/api/v1/users", { body: { email, password: "a long enough password" } }), 201, "create user");
    expectAnswer(await typedApi(server.baseUrl).POST("/api/v1/auth/password-reset/request", { body: { email } }), 202, "reset request");
    const mail = await mailTo(email);
    expect(mail.authorization).toBe(`Bearer ${token}`);
    expect(mail.body).toMatchObject({ from: "Overlay <no-reply@example.com>", to: [email], subject: "Reset your password" });
    expect(mail.body.text).toMatch(/prt_[\w-]{43}/);
    expectError(await typedApi(server.baseUrl).GET("/api/v1/dev/mail", { params: { query: { to: email } } }), 404, "not_found");
  });

  it("a refusing relay: the reset answer is unchanged; an invite is revoked and answers 502", async () => {
    refuse = true;
    try {
      const admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
      const answer = await typedApi(server.baseUrl).POST("/api/v1/auth/password-reset/request", { body: { email: server.admin.email } });
      expect(answer.response.status).toBe(202);
      const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: "relay" } }), 201, "create group");
      const invite = await admin.POST("/api/v1/groups/{id}/invites", {
        ...byId(group.id),
        body: { email: "someone@example.com", role: "viewer" },
      });
      expect(invite.response.status).toBe(502);
      expect(invite.error?.error.code).toBe("bad_gateway");
      const invites = expectAnswer(await admin.GET("/api/v1/groups/{id}/invites", byId(group.id)), 200, "invites");
      expect(invites.items.map((item) => item.status)).toEqual(["revoked"]);
    } finally {
      refuse = false;
    }
  });
});
