import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { throttleStub } from "../../src/services/throttle/throttle-rpc";
import { createUser, signInAdmin } from "../helpers/factories";
import { expectError, expectRetryAfter, freshAddress, from, uniqueEmail } from "./identity-helpers";

const PASSWORD = "a long enough password";
const login = (email: string, password: string, address = freshAddress()) => from(address).post("/auth/login", { email, password });

// Every failed login pays a real scrypt hash: generous timeouts for loops of them on a loaded machine.
describe("login throttling", { timeout: 60_000 }, () => {
  it("5 failures per account (from any address) lock it: 429 with Retry-After, even for the right password", async () => {
    const user = await createUser(await signInAdmin());
    for (let i = 0; i < 5; i++) expectError(await login(user.email, "wrong password!"), 401, "unauthorized");
    expectRetryAfter(await login(user.email, PASSWORD), 900);
    const other = await createUser(await signInAdmin());
    expect((await login(other.email, PASSWORD)).status).toBe(200);
  });

  it("an unknown email is throttled exactly like a known one (no enumeration)", async () => {
    const user = await createUser(await signInAdmin());
    const ghost = uniqueEmail("ghost");
    const answers = [];
    for (const email of [user.email, ghost]) {
      for (let i = 0; i < 5; i++) expectError(await login(email, "wrong password!"), 401, "unauthorized");
      const locked = await login(email, "wrong password!");
      answers.push({ status: locked.status, body: locked.body });
    }
    expect(answers[1]).toEqual(answers[0]);
  });

  it("a successful login clears the account's failures", async () => {
    const user = await createUser(await signInAdmin());
    for (let i = 0; i < 4; i++) expectError(await login(user.email, "wrong password!"), 401, "unauthorized");
    expect((await login(user.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expectError(await login(user.email, "wrong password!"), 401, "unauthorized");
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it("20 failures from one client address lock that address across accounts, not others", async () => {
    const address = freshAddress();
    for (let i = 0; i < 20; i++) expectError(await login(uniqueEmail(), "wrong password!", address), 401, "unauthorized");
    const user = await createUser(await signInAdmin());
    expectRetryAfter(await login(user.email, PASSWORD, address), 900);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it("a parallel burst cannot get past the account limit", async () => {
    const user = await createUser(await signInAdmin());
    const answers = await Promise.all(Array.from({ length: 12 }, () => login(user.email, "wrong password!")));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });
});

describe("the Throttle Durable Object", () => {
  const stub = () => throttleStub(env, `test:${crypto.randomUUID()}`);

  it("slides its window: attempts leave it after windowSeconds, and Retry-After says when", async () => {
    const throttle = stub();
    const rule = { limit: 2, windowSeconds: 1 };
    expect((await throttle.take(rule)).allowed).toBe(true);
    expect((await throttle.take(rule)).allowed).toBe(true);
    const refused = await throttle.take(rule);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await throttle.take(rule)).allowed).toBe(true);
  });

  it("release gives one attempt back and clear forgets them all", async () => {
    const throttle = stub();
    const rule = { limit: 1, windowSeconds: 900 };
    const first = await throttle.take(rule);
    expect((await throttle.take(rule)).allowed).toBe(false);
    if (first.allowed) await throttle.release(first.stamp);
    expect((await throttle.take(rule)).allowed).toBe(true);
    await throttle.clear();
    expect((await throttle.take(rule)).allowed).toBe(true);
  });
});
