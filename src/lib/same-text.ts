import { timingSafeEqual } from "node:crypto";

/** Constant-time equality of two strings (secrets, codes): how long it takes does not tell where they differ. */
export function sameText(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
