import { HEARTBEAT_LOOP, INSTALL_SERVICE, installWgo } from "../wgo-commands";

/** One command to copy, in a block the copy button names. */
export const Command = ({ id, command }: { id: string; command: string }) => (
  <div class="command-box">
    <pre class="command">
      <code id={id}>{command}</code>
    </pre>
    <button type="button" class="secondary copy" data-copy={id}>
      Copy
    </button>
  </div>
);

/**
 * A laptop's or server's steps, as root: install wgo, `wgo up …`, then the service that keeps it in sync. The second step is
 * not optional: a device that only ran `wgo up` never reports again, so it reads offline and cannot follow changes.
 */
export function DeviceSteps({ origin, up, prefix }: { origin: string; up: string; prefix: string }) {
  return (
    <ol class="steps">
      <li>
        <p>Install wgo from this control plane, unless the machine has it (it needs Node 18.16 or newer):</p>
        <Command id={`${prefix}-install`} command={installWgo(origin)} />
      </li>
      <li>
        <p>Join the network and bring the tunnel up:</p>
        <Command id={`${prefix}-up`} command={up} />
      </li>
      <li>
        <p>Keep it in sync: a systemd service that reports, follows every change and comes back after a reboot:</p>
        <Command id={`${prefix}-service`} command={INSTALL_SERVICE} />
        <p class="help">
          No systemd? Run <code>{HEARTBEAT_LOOP}</code> (the name <code>wgo up</code> printed) under the machine's own service manager.
        </p>
      </li>
    </ol>
  );
}
