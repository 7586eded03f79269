import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Env, getConfig } from "../../src/lib/env";
import { hashPassword } from "../../src/services/auth/password";
import { post } from "../helpers/api";
import { createUser, signIn, signInAdmin } from "../helpers/factories";

const storedHash = async (userId: string) =>
  (await env.DB.prepare("select password_hash as hash from users where id = ?").bind(userId).first<{ hash: string }>())!.hash;

describe("password hashes follow PASSWORD_SCRYPT_LOG_N", () => {
  it("a deployment hashes with N=2^14 unless told otherwise, and refuses a cost below 2^10", () => {
    const secrets = { JWT_SIGNING_KEYS: env.JWT_SIGNING_KEYS, TOKEN_SECRET: env.TOKEN_SECRET };
    expect(getConfig({ ...secrets } as Env).PASSWORD_SCRYPT_LOG_N).toBe(14);
    expect(getConfig({ ...secrets, PASSWORD_SCRYPT_LOG_N: "16" } as Env).PASSWORD_SCRYPT_LOG_N).toBe(16);
    expect(() => getConfig({ ...secrets, PASSWORD_SCRYPT_LOG_N: "8" } as Env)).toThrow(/PASSWORD_SCRYPT_LOG_N/);
  });

  it("new hashes use the configured cost (this suite's 10); a hash made at another cost still verifies", async () => {
    expect(env.PASSWORD_SCRYPT_LOG_N).toBe("10");
    const admin = await signInAdmin();
    const user = await createUser(admin);
    expect(await storedHash(user.userId)).toMatch(/^\$scrypt\$ln=10,r=8,p=5\$/);

    // A hash made by a deployment at 2^14 (before its cost changed) still signs its user in: the hash names its cost.
    const strong = await hashPassword("another long password", 14);
    await env.DB.prepare("update users set password_hash = ? where id = ?").bind(strong, user.userId).run();
    expect((await signIn(user.email, "another long password")).userId).toBe(user.userId);
    expect((await post("/auth/login", { email: user.email, password: "a long enough password" })).status).toBe(401);
  });
});
