import { scrypt, timingSafeEqual } from "node:crypto";

/**
 * scrypt (node:crypto, native in workerd under nodejs_compat). N=2^14, r=8, p=5 is OWASP's
 * equivalent-strength row for N=2^14: 16 MiB of memory, ~tens of ms of CPU, inside the Workers
 * budget. PBKDF2 above 100k iterations is rejected by production Workers, and Argon2 in WASM does
 * not run there. The hash names its parameters so they can rise without a migration: log2 N is the
 * deployment's PASSWORD_SCRYPT_LOG_N (lib/env.ts, default 14), which new hashes use; the workerd test
 * suites set it to 10 (a sign-in per test otherwise costs them seconds), as Devise and Django lower their
 * hash cost under test. Verifying reads the parameters from the stored hash.
 */
const PARAMS = { r: 8, p: 5 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64").replaceAll("=", "");
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));

function derive(password: string, salt: Uint8Array, logN: number, r: number, p: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: 2 ** logN, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(new Uint8Array(key)),
    );
  });
}

/** `logN`: the deployment's PASSWORD_SCRYPT_LOG_N (getConfig). */
export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_LENGTH));
  const key = await derive(password, salt, logN, PARAMS.r, PARAMS.p);
  return `$scrypt$ln=${logN},r=${PARAMS.r},p=${PARAMS.p}$${b64(salt)}$${b64(key)}`;
}

const FORMAT = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (!match) return false;
  const [, logN, r, p, salt, hash] = match as unknown as [string, string, string, string, string, string];
  const expected = unb64(hash);
  const actual = await derive(password, unb64(salt), Number(logN), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A real hash of a random password: unknown accounts pay the same KDF cost as known ones. */
let decoy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string, logN: number): Promise<void> {
  decoy ??= hashPassword(crypto.randomUUID(), logN);
  await verifyPassword(password, await decoy);
}

export { PASSWORD_RULES } from "../../lib/password-rules";
