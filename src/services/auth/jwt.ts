import { importJWK, jwtVerify, SignJWT, type JWK, type CryptoKey } from "jose";
import type { Config } from "../../lib/env";
import { newId } from "../../lib/ids";
import { VerifiedTokens } from "./verified-tokens";

/** Audiences keep user, device and agent tokens from standing in for one another. */
export const AUDIENCE = { user: "wg-overlay:user", device: "wg-overlay:device", agent: "wg-overlay:agent" } as const;
export type Audience = (typeof AUDIENCE)[keyof typeof AUDIENCE];

const ALGORITHM = "EdDSA";

interface KeySet {
  current: { kid: string; key: CryptoKey };
  verifiers: Map<string, CryptoKey>;
  /** Tokens these keys verified (verified-tokens.ts): a new key set starts empty. */
  verified: VerifiedTokens;
}

const keySets = new Map<string, Promise<KeySet>>();

async function loadKeySet(json: string): Promise<KeySet> {
  const jwks = JSON.parse(json) as JWK[];
  if (!Array.isArray(jwks) || jwks.length === 0) throw new Error("JWT_SIGNING_KEYS must be a non-empty JSON array");
  const verifiers = new Map<string, CryptoKey>();
  let current: KeySet["current"] | undefined;
  for (const jwk of jwks) {
    if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || !jwk.kid || !jwk.d) {
      throw new Error("JWT_SIGNING_KEYS entries must be Ed25519 private JWKs with a kid");
    }
    const { d: _private, ...publicJwk } = jwk;
    verifiers.set(jwk.kid, (await importJWK(publicJwk, ALGORITHM)) as CryptoKey);
    // The first key signs; the rest (previous keys) only verify, so rotation never logs anyone out.
    current ??= { kid: jwk.kid, key: (await importJWK(jwk, ALGORITHM)) as CryptoKey };
  }
  return { current: current!, verifiers, verified: new VerifiedTokens() };
}

function keySet(config: Config): Promise<KeySet> {
  let set = keySets.get(config.JWT_SIGNING_KEYS);
  if (!set) {
    set = loadKeySet(config.JWT_SIGNING_KEYS);
    keySets.set(config.JWT_SIGNING_KEYS, set);
  }
  return set;
}

export async function signAccessToken(
  config: Config,
  audience: Audience,
  subject: string,
  claims: Record<string, string>,
  ttlSeconds: number,
): Promise<string> {
  const { current } = await keySet(config);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM, kid: current.kid, typ: "JWT" })
    .setIssuer(config.JWT_ISSUER)
    .setAudience(audience)
    .setSubject(subject)
    .setIssuedAt()
    .setJti(newId("req"))
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(current.key);
}

/** Returns the payload, or null for any token that is not ours, not for this audience, or not current. */
export async function verifyAccessToken(config: Config, audience: Audience, token: string) {
  const { verifiers, verified } = await keySet(config);
  const context = `${config.JWT_ISSUER}\u0000${audience}`;
  const known = verified.get(context, token);
  if (known) return known;
  try {
    const { payload } = await jwtVerify(
      token,
      (header) => {
        const key = header.kid ? verifiers.get(header.kid) : undefined;
        if (!key) throw new Error("unknown kid");
        return key;
      },
      {
        algorithms: [ALGORITHM],
        issuer: config.JWT_ISSUER,
        audience,
        requiredClaims: ["sub", "exp", "iat", "jti"],
      },
    );
    verified.remember(context, token, payload);
    return payload;
  } catch {
    return null;
  }
}
