import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { throttleStub } from "../../src/objects/throttle/client";
import { createUser, signInAdmin } from "../helpers/factories";
import { expectError, expectRetryAfter, freshAddress, from, uniqueEmail } from "./identity-helpers";

const PASSWORD = "a long enough password";
const login = (email: string, password: string, address = freshAddress()) => from(address).post("/auth/login", { email, password });

// Every failed login pays a real scrypt hash: generous timeouts for loops of them on a loaded machine.
describe("login throttling", { timeout: 60_000 }, () => {
  it("wrong passwords from five other addresses (five each, and more) do not lock the owner out: the right one from a sixth signs in", async () => {
    const user = await createUser(await signInAdmin());
    for (let n = 0; n < 5; n++) {
      const stranger = freshAddress();
      for (let i = 0; i < 5; i++) expectError(await login(user.email, "wrong password!", stranger), 401, "unauthorized");
      expectRetryAfter(await login(user.email, "wrong password!", stranger), 900);
    }
    const owner = await login(user.email, PASSWORD);
    expect(owner.status, owner.text).toBe(200);
    expect(owner.body.user.id).toBe(user.userId);
  });

  it("one address guessing one account is throttled after 5 failures: 429 with Retry-After, even for the right password from it", async () => {
    const user = await createUser(await signInAdmin());
    const guesser = freshAddress();
    for (let i = 0; i < 5; i++) expectError(await login(user.email, "wrong password!", guesser), 401, "unauthorized");
    expectRetryAfter(await login(user.email, PASSWORD, guesser), 900);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it("many addresses against one account reach its ceiling (100 failures an hour): then even the right password is 429", {
    timeout: 240_000,
  }, async () => {
    const user = await createUser(await signInAdmin());
    // 20 addresses x 5 failures: each stays inside its own pair limit, together they fill the ceiling.
    const statuses: number[] = [];
    for (let n = 0; n < 20; n++) {
      const stranger = freshAddress();
      const answers = await Promise.all(Array.from({ length: 5 }, () => login(user.email, "wrong password!", stranger)));
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status !== 401)).toEqual([]);
    expectRetryAfter(await login(user.email, PASSWORD), 3600);
    expect((await login(user.email, "wrong password!")).status).toBe(429);
  });

  it("an unknown email is throttled exactly like a known one (no enumeration)", async () => {
    const user = await createUser(await signInAdmin());
    const ghost = uniqueEmail("ghost");
    const address = freshAddress();
    const answers = [];
    for (const email of [user.email, ghost]) {
      for (let i = 0; i < 5; i++) expectError(await login(email, "wrong password!", address), 401, "unauthorized");
      const locked = await login(email, "wrong password!", address);
      answers.push({ status: locked.status, body: locked.body });
    }
    expect(answers[0]?.status).toBe(429);
    expect(answers[1]).toEqual(answers[0]);
  });

  it("a successful login clears the failures of its account from its address", async () => {
    const user = await createUser(await signInAdmin());
    const address = freshAddress();
    for (let i = 0; i < 4; i++) expectError(await login(user.email, "wrong password!", address), 401, "unauthorized");
    expect((await login(user.email, PASSWORD, address)).status).toBe(200);
    for (let i = 0; i < 4; i++) expectError(await login(user.email, "wrong password!", address), 401, "unauthorized");
    expect((await login(user.email, PASSWORD, address)).status).toBe(200);
  });

  it("20 failures from one client address lock that address across accounts, not others", async () => {
    const address = freshAddress();
    for (let i = 0; i < 20; i++) expectError(await login(uniqueEmail(), "wrong password!", address), 401, "unauthorized");
    const user = await createUser(await signInAdmin());
    expectRetryAfter(await login(user.email, PASSWORD, address), 900);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it("a parallel burst from one address cannot get past the limit of its pair", async () => {
    const user = await createUser(await signInAdmin());
    const address = freshAddress();
    const answers = await Promise.all(Array.from({ length: 12 }, () => login(user.email, "wrong password!", address)));
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
