/** One tunnel as its node reports it (stored in the network's hot state: objects/network/hot/hot-store.ts): the peer's key, its last handshake, the interface's counters, where it heard the peer. */
export interface TunnelObservation {
  publicKey: string;
  lastHandshakeAt: string | null;
  rxBytes: number;
  txBytes: number;
  /** The peer's endpoint as the reporter's WireGuard holds it (wg show endpoints); absent from older clients. */
  endpoint?: string | null;
}
