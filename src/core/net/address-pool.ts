import type { Cidr } from "./cidr";
import { formatAddress, parseAddress, usableRange } from "./ipam";

/**
 * The addresses of one network in use, kept as numbers, with a cursor below which every usable address
 * is taken. The writer holds one per network, so allocating the lowest free address costs O(1)
 * amortised instead of a walk over every node: filling a network to its cap stays linear.
 */
export class AddressPool {
  private readonly used = new Set<bigint>();
  private readonly range: { first: bigint; last: bigint };
  /** No usable address below this one is free. */
  private cursor: bigint;

  constructor(readonly cidr: Cidr) {
    this.range = usableRange(cidr);
    this.cursor = this.range.first;
  }

  /** The address as a key of this network's family; stored text may carry a stray "/prefix" (see ipam). */
  private keyOf(address: string): bigint | null {
    const slash = address.indexOf("/");
    const parsed = parseAddress(slash < 0 ? address : address.slice(0, slash));
    return parsed && parsed.family === this.cidr.family ? parsed.value : null;
  }

  isTaken(value: bigint): boolean {
    return this.used.has(value);
  }

  take(address: string): void {
    const key = this.keyOf(address);
    if (key !== null) this.used.add(key);
  }

  release(address: string): void {
    const key = this.keyOf(address);
    if (key === null || !this.used.delete(key)) return;
    if (key < this.cursor && key >= this.range.first) this.cursor = key;
  }

  /** The lowest free usable address, or null when the range is full. */
  lowestFree(): string | null {
    while (this.cursor <= this.range.last && this.used.has(this.cursor)) this.cursor++;
    return this.cursor <= this.range.last ? formatAddress(this.cidr.family, this.cursor) : null;
  }
}
