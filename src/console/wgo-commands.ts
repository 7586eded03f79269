/**
 * The `wgo` command lines the console shows for a device (docs/cli.md), each one line a copy button copies. A
 * laptop's two commands: `wgo up` (signs in, finds the network by name, enrols, brings the interface up), then
 * `wgo install-service`, whose unit keeps the device in sync (heartbeats, long polls, applies changes) and brings
 * it back after a reboot. Without the second, a device never reports again and reads offline.
 */

/** A word as a POSIX shell reads it: bare when it is plain, else single-quoted (a name with spaces). */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9._@%+=:,/-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** wgo from this control plane, versioned with it (docs/cli.md, "Installing wgo"): Node 18.16 or newer is all it needs. */
export const installWgo = (origin: string) => `curl -fsSL ${shellWord(`${origin}/api/v1/install.sh`)} | sh`;

/** A person at the machine: signs in as themselves and names the network as they know it. */
export const wgoUpSignedIn = (origin: string, networkName: string, email: string) =>
  `wgo up --api ${shellWord(origin)} --network ${shellWord(networkName)} --email ${shellWord(email)}`;

/** A machine no one signs in on: the enrolment key decides the network (wgo looks a name up only when signed in). */
export const wgoUpWithKey = (origin: string, key: string) => `wgo up --api ${shellWord(origin)} --enrolment-key ${shellWord(key)}`;

/** The systemd unit of the only device wgo enrolled on the machine (wgo install-service --help). */
export const INSTALL_SERVICE = "wgo install-service";

/** What that unit runs, for a machine with another service manager. */
export const HEARTBEAT_LOOP = "wgo heartbeat --name DEVICE --apply";
