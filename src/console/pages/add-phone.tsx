import type { Schema } from "../../../client/index.ts";
import { QR_SCRIPT_URL } from "../phone-script";
import { CsrfField } from "../layout";
import type { ConsoleUser } from "../types";
import { NetworkFrame } from "./network-frame";

export interface AddPhoneProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
}

/** What the platform list offers; the device's platform is the label (docs/console.md, "A phone or tablet"). */
export const APP_PLATFORMS = ["iOS", "Android", "macOS", "Windows", "Linux", "Other"] as const;

/**
 * A device without wgo: the page's script (phone-script.ts) makes an X25519 key pair with WebCrypto, posts only
 * the public key, and turns the config it gets back into a QR code and a .conf file, private key included. The
 * private key stays in the page. Without script nothing can be made here, and the page says why.
 */
export function AddPhonePage({ user, csrfToken, network }: AddPhoneProps) {
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/add-device" heading="Add a phone or tablet">
      <noscript>
        <p class="notice error">
          This page needs JavaScript: the key pair is made in your browser, so that the private key never reaches the server.
        </p>
      </noscript>
      <form id="phone-form" method="post" action={`/networks/${network.id}/add-phone`} class="card">
        <CsrfField token={csrfToken} />
        <label for="phone-name">Name</label>
        <input id="phone-name" name="name" required maxlength={63} autocomplete="off" aria-describedby="phone-name-help" />
        <p class="help" id="phone-name-help">
          How the network will call it, e.g. ada-phone (letters, digits and hyphens).
        </p>
        <label for="phone-platform">Platform</label>
        <select id="phone-platform" name="platform">
          {APP_PLATFORMS.map((platform) => (
            <option value={platform}>{platform}</option>
          ))}
        </select>
        <button type="submit">Make the key pair and the config</button>
      </form>
      <div id="phone-error" class="notice error" role="alert" hidden />
      <section id="phone-result" aria-labelledby="phone-result-heading" hidden>
        <h2 id="phone-result-heading" tabindex={-1}>
          Scan it with the WireGuard app
        </h2>
        <ol class="steps">
          <li>
            On a phone or tablet: in the WireGuard app, <strong>+</strong> then <strong>Create from QR code</strong> (iOS) or{" "}
            <strong>Scan from QR code</strong> (Android), and scan this code.
          </li>
          <li>
            On macOS or Windows: <strong>Import tunnel(s) from file</strong> with the downloaded file.
          </li>
          <li>Turn the tunnel on. The device shows on the Devices page once a gateway or peer reports a handshake with it.</li>
        </ol>
        <figure class="qr">
          <div id="phone-qr" role="img" aria-label="QR code of the device's WireGuard config" />
          <figcaption>The config, private key included: anyone who scans it can join as this device.</figcaption>
        </figure>
        <p>
          <a id="phone-download" class="button" href="#phone-result" download="wireguard.conf">
            Download the .conf file
          </a>
        </p>
        <p class="notice">
          <strong>Only this page holds the private key.</strong> Once you leave it, the code and the file cannot be shown again: to move the
          device, revoke it on the Devices page and add it again.
        </p>
        <p>
          <a href="/devices">Go to Devices</a>
        </p>
      </section>
      <script src={QR_SCRIPT_URL} />
      <script src="/assets/phone.js" />
    </NetworkFrame>
  );
}
