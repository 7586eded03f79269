import type { Schema } from "../../../client/index.ts";
import { Icon } from "../icons";
import type { ConsoleUser } from "../types";
import { wgoUpSignedIn } from "../wgo-commands";
import { DeviceSteps } from "./device-steps";
import { NetworkFrame } from "./network-frame";

export interface AddDeviceProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  origin: string;
  /** Owner or admin of the group: may make enrolment keys for machines no one signs in on. */
  canChange: boolean;
}

/** Every way a device joins this network: wgo on a laptop or server, an enrolment key, or a phone's WireGuard app. */
export function AddDevicePage({ user, csrfToken, network, origin, canChange }: AddDeviceProps) {
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/add-device" heading="Add a device">
      <section aria-labelledby="with-wgo" class="card wide">
        <h2 id="with-wgo">A laptop or server with wgo</h2>
        <p>
          On the machine, as root (<code>wgo</code> asks for your password):
        </p>
        <DeviceSteps origin={origin} up={wgoUpSignedIn(origin, network.name, user.email)} prefix="laptop" />
        {canChange && (
          <p>
            A machine no one signs in on (a server, a container, CI):{" "}
            <a href={`/enrolment-keys?network=${network.id}`}>Create an enrolment key for {network.name}</a>.
          </p>
        )}
      </section>
      <section aria-labelledby="with-app" class="card wide">
        <h2 id="with-app">A phone, tablet or computer with the WireGuard app</h2>
        <p>
          For the official WireGuard apps (iOS, Android, macOS, Windows): this page makes the key pair in your browser, registers its public
          key, and shows the config as a QR code and a <code>.conf</code> file. The private key never leaves the page.
        </p>
        <p>
          <a class="button" href={`/networks/${network.id}/add-phone`}>
            <Icon name="phone" />
            Add a phone or tablet
          </a>
        </p>
      </section>
    </NetworkFrame>
  );
}
