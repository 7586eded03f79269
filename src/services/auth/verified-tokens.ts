import type { JWTPayload } from "jose";

/** Bounded: when full it starts over (a token it dropped costs one signature check on its next use). */
const MAX_TOKENS = 5_000;

/**
 * Tokens whose signature and claims were checked in this isolate, by the key set, issuer and audience they
 * were checked against: a request presenting the same token again skips the Ed25519 check (the largest
 * single cost of an authenticated request in the Worker's own code) and only its expiry is checked again.
 * Verification of a given token against given keys never changes its answer, so nothing is trusted that a
 * fresh check would refuse; only time moves, and `exp` is checked on every use. Whether the token's session
 * is still live is a separate check, never cached for writes (middleware/auth.ts).
 */
export class VerifiedTokens {
  private readonly checked = new Map<string, JWTPayload>();

  get(context: string, token: string, nowSeconds = Date.now() / 1000): JWTPayload | undefined {
    const key = `${context}\u0000${token}`;
    const payload = this.checked.get(key);
    if (!payload) return undefined;
    if (typeof payload.exp === "number" && payload.exp > nowSeconds) return payload;
    this.checked.delete(key);
    return undefined;
  }

  remember(context: string, token: string, payload: JWTPayload): void {
    if (this.checked.size >= MAX_TOKENS) this.checked.clear();
    this.checked.set(`${context}\u0000${token}`, payload);
  }
}
