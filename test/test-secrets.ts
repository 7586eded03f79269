import { generateKeyPairSync, randomBytes } from "node:crypto";

export const TEST_ADMIN = { email: "admin@test.local", password: "correct horse battery staple" };

/** Fresh signing keys per run: the test Worker gets secrets the way production gets `wrangler secret`. */
export function testSecrets() {
  const signing = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
  const previous = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
  return {
    JWT_SIGNING_KEYS: JSON.stringify([
      { ...signing, kid: "test-current" },
      { ...previous, kid: "test-previous" },
    ]),
    TOKEN_SECRET: randomBytes(32).toString("base64"),
    BOOTSTRAP_ADMIN_EMAIL: TEST_ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: TEST_ADMIN.password,
  };
}
