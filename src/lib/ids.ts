const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export type IdPrefix = "usr" | "ses" | "rt" | "grp" | "net" | "rp" | "dns" | "node" | "dev" | "ek" | "reg" | "gw" | "agt" | "tun" | "req"
  // notifications (channel, event, delivery) and audit records
  | "nch" | "nev" | "ndl" | "aud"
  // agent enrolment tokens
  | "aet"
  // identity: password resets, invites, recovery codes, MFA challenges, OAuth states, development mail
  | "prt" | "inv" | "rc" | "mfc" | "oas" | "mail";

/** Opaque ids with a type prefix: 128 random bits in Crockford base32. */
export function newId(prefix: IdPrefix): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return `${prefix}_${out}`;
}

export const nowIso = () => new Date().toISOString();
