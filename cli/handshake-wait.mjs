// `wgo up --wait-handshake S`: proof that the tunnel works, not only that the interface exists. WireGuard
// stays silent until there is traffic, so each round pings the peers' overlay addresses (from inside the
// interface's namespace) and reads `wg show IF dump` for a handshake. None within S seconds almost always
// means UDP is blocked on the way, so the failure names the UDP ports involved.
import { OperationError } from "./errors.mjs";
import { parseWgDump } from "./system.mjs";

const ROUND_MS = 1_000;
const PINGED_PEERS = 3; // one answer is enough; a few covers a peer that is down

/**
 * @param {{ sys: import("./system.mjs").System, ifname: string, seconds: number, now: () => number }} options
 * @returns {Promise<{ peer: string, seconds: number }>} the first peer that completed a handshake
 */
export async function waitForHandshake({ sys, ifname, seconds, now }) {
  const started = now();
  for (;;) {
    const dump = parseWgDump(await sys.check(["wg", "show", ifname, "dump"]));
    const shaken = dump.peers.find((peer) => peer.latestHandshake > 0);
    if (shaken) return { peer: shaken.publicKey, seconds: Math.round((now() - started) / 1000) };
    if (now() - started >= seconds * 1000) throw noHandshake(ifname, seconds, dump);
    // Traffic makes WireGuard start a handshake; ping's own answer does not matter.
    for (const address of overlayAddresses(dump).slice(0, PINGED_PEERS)) await sys.run(["ping", "-c", "1", "-W", "1", "-q", address]);
    await new Promise((resolve) => setTimeout(resolve, ROUND_MS));
  }
}

/** Each peer's own host address (its /32 or /128 among AllowedIPs). */
function overlayAddresses(dump) {
  return dump.peers.flatMap((peer) =>
    peer.allowedIps
      .filter((ip) => /\/(32|128)$/.test(ip))
      .slice(0, 1)
      .map((ip) => ip.split("/")[0]),
  );
}

function noHandshake(ifname, seconds, dump) {
  const endpoints = dump.peers.map((peer) => peer.endpoint).filter(Boolean);
  const outbound = endpoints.length
    ? `this machine must reach the peers' endpoints over UDP (${endpoints.slice(0, 5).join(", ")})`
    : "no peer has an endpoint, so a peer has to reach this machine first";
  const inbound = dump.listenPort ? `, and peers that connect here need UDP port ${dump.listenPort} open to this machine` : "";
  return new OperationError(
    `${ifname} is up, but no peer completed a handshake within ${seconds} s: ${outbound}${inbound}; ` +
      "check firewalls and NAT for UDP (`wgo status` shows the handshakes later)",
    { code: "no_handshake" },
  );
}
