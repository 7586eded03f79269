/**
 * WireGuard re-handshakes every 2 minutes while traffic flows (REKEY_AFTER_TIME = 120 s) and drops
 * a session after 180 s without one (REJECT_AFTER_TIME). So a handshake under 180 s old means the
 * tunnel is up; under 10 minutes, stale (idle or flapping); older, or never, down.
 */
export const TUNNEL_UP_SECONDS = 180;
export const TUNNEL_STALE_SECONDS = 600;

export type TunnelState = "up" | "stale" | "down";

export function tunnelState(lastHandshakeAt: string | null, now = Date.now()): TunnelState {
  if (!lastHandshakeAt) return "down";
  const age = (now - Date.parse(lastHandshakeAt)) / 1000;
  if (age <= TUNNEL_UP_SECONDS) return "up";
  if (age <= TUNNEL_STALE_SECONDS) return "stale";
  return "down";
}
