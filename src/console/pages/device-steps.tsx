import { HEARTBEAT_LOOP, INSTALL_SERVICE } from "../wgo-commands";

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
 * A laptop's or server's steps, as root: `wgo up …`, then the service that keeps it in sync. The second step is
 * not optional: a device that only ran `wgo up` never reports again, so it reads offline and cannot follow changes.
 */
export function DeviceSteps({ up, prefix }: { up: string; prefix: string }) {
  return (
    <ol class="steps">
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
