import { base32Encode, CROCKFORD_ALPHABET } from "./base32";

export type IdPrefix =
  | "usr"
  // SCIM bearer tokens (services/scim/tokens.ts)
  | "sct"
  // the directory's groups and their mappings onto ours (services/scim/)
  | "idg"
  | "idm"
  | "ses"
  | "rt"
  | "grp"
  | "net"
  | "rp"
  // gateway pools (a hop of a gateway path with failover)
  | "gpl"
  | "dns"
  | "node"
  | "dev"
  | "ek"
  | "reg"
  | "gw"
  // gateway assignments (which groups may use which inventory gateway or region)
  | "gwa"
  | "agt"
  | "tun"
  | "req"
  // notifications (channel, event, delivery) and audit records
  | "nch"
  | "nev"
  | "ndl"
  | "aud"
  // agent enrolment tokens
  | "aet"
  // the metrics token (GET /metrics)
  | "mtk"
  // identity: password resets, invites, recovery codes, MFA challenges, OAuth states, development mail
  | "prt"
  | "inv"
  | "rc"
  | "mfc"
  | "oas"
  | "mail";

/** Opaque ids with a type prefix: 128 random bits in Crockford base32. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${base32Encode(crypto.getRandomValues(new Uint8Array(16)), CROCKFORD_ALPHABET)}`;
}

export const nowIso = () => new Date().toISOString();

/** An ISO timestamp `seconds` from now: the expiry of tokens, keys and challenges. */
export const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
