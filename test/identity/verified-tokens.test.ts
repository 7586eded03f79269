// The isolate's memory of tokens it verified (services/auth/verified-tokens.ts): a token is taken as verified
// only until its `exp`, only for the issuer and audience it was checked against, and memory stays bounded.
import { describe, expect, it } from "vitest";
import { VerifiedTokens } from "../../src/services/auth/verified-tokens";

const payload = (exp: number) => ({ sub: "usr_1", sid: "ses_1", role: "user", exp, iat: exp - 900, jti: "req_1" });

describe("verified tokens", () => {
  it("answers a remembered token until its exp, then forgets it", () => {
    const tokens = new VerifiedTokens();
    tokens.remember("iss\u0000aud", "t1", payload(1_000));
    expect(tokens.get("iss\u0000aud", "t1", 999.9)).toMatchObject({ sub: "usr_1", exp: 1_000 });
    expect(tokens.get("iss\u0000aud", "t1", 1_000)).toBeUndefined();
    // Forgotten: even a clock that went back does not bring it back.
    expect(tokens.get("iss\u0000aud", "t1", 10)).toBeUndefined();
  });

  it("does not answer for another audience or issuer, or a token without exp", () => {
    const tokens = new VerifiedTokens();
    tokens.remember("iss\u0000user", "t1", payload(2_000));
    expect(tokens.get("iss\u0000agent", "t1", 1)).toBeUndefined();
    expect(tokens.get("other\u0000user", "t1", 1)).toBeUndefined();
    tokens.remember("iss\u0000user", "t2", { sub: "usr_1" });
    expect(tokens.get("iss\u0000user", "t2", 1)).toBeUndefined();
  });

  it("stays bounded: past 5,000 tokens it starts over", () => {
    const tokens = new VerifiedTokens();
    for (let i = 0; i < 5_000; i++) tokens.remember("c", `t${i}`, payload(2_000));
    expect(tokens.get("c", "t0", 1)).toBeDefined();
    tokens.remember("c", "one more", payload(2_000));
    expect(tokens.get("c", "t0", 1)).toBeUndefined();
    expect(tokens.get("c", "one more", 1)).toBeDefined();
  });
});
