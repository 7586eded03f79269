/**
 * The phone page's script (pages/add-phone.tsx), served by the Worker at /assets/phone.js. WebCrypto makes the
 * X25519 key pair (a WireGuard key pair: the private key is the raw 32 bytes, the public key its X25519 point),
 * the form posts the public key only (fetch, same origin, the CSRF field), and the answer's wg-quick text gets
 * the private key in place of the server's placeholder. Then a QR code (qrcode-generator, served from
 * QR_SCRIPT_URL) drawn as SVG, and a .conf download from a Blob. Nothing leaves the page but the public key.
 */

/** The pinned qrcode-generator (package.json); scripts/build-assets.mjs copies its browser build here. */
export const QR_LIBRARY_VERSION = "2.0.4";
export const QR_SCRIPT_URL = `/assets/qrcode-generator-${QR_LIBRARY_VERSION}.js`;

export const PHONE_JS = `
(() => {
  const form = document.getElementById("phone-form");
  if (!form) return;
  const error = document.getElementById("phone-error");
  const button = form.querySelector("button[type=submit]");
  const base64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
  const fail = (message) => {
    error.textContent = message;
    error.hidden = false;
    button.removeAttribute("aria-busy");
    button.textContent = button.dataset.label || button.textContent;
  };
  const svg = (name, attributes) => {
    const element = document.createElementNS("http://www.w3.org/2000/svg", name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
    return element;
  };
  // Dark modules as one path, a 4-module quiet zone, dark on white whatever the page's colours (scanners want that).
  const drawQr = (text) => {
    const qr = qrcode(0, "M");
    qr.addData(text, "Byte");
    qr.make();
    const count = qr.getModuleCount();
    const size = count + 8;
    let d = "";
    for (let row = 0; row < count; row++)
      for (let col = 0; col < count; col++) if (qr.isDark(row, col)) d += "M" + (col + 4) + " " + (row + 4) + "h1v1h-1z";
    const picture = svg("svg", { viewBox: "0 0 " + size + " " + size, "shape-rendering": "crispEdges", focusable: "false" });
    picture.append(svg("rect", { width: size, height: size, fill: "#ffffff" }), svg("path", { d, fill: "#000000" }));
    return picture;
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    let pair;
    try {
      pair = await crypto.subtle.generateKey({ name: "X25519" }, true, ["deriveBits"]);
    } catch {
      return fail("This browser cannot make an X25519 key pair (WebCrypto): use a current Chrome, Edge, Firefox or Safari.");
    }
    const publicKey = base64(await crypto.subtle.exportKey("raw", pair.publicKey));
    const privateKey = base64(new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey)).slice(-32));
    const body = new URLSearchParams(new FormData(form));
    body.set("publicKey", publicKey);
    let answer;
    try {
      const response = await fetch(form.action, { method: "POST", body, headers: { accept: "application/json" } });
      answer = { ok: response.ok, body: await response.json() };
    } catch {
      return fail("The console could not be reached: nothing was registered. Try again.");
    }
    if (!answer.ok) return fail(answer.body.message || "The API refused the device.");
    const config = answer.body.config.replace(answer.body.placeholder, privateKey);
    const qr = document.getElementById("phone-qr");
    qr.replaceChildren(drawQr(config));
    qr.setAttribute("aria-label", "QR code of the WireGuard config of " + answer.body.name);
    qr.dataset.device = answer.body.name;
    const download = document.getElementById("phone-download");
    download.href = URL.createObjectURL(new Blob([config], { type: "text/plain" }));
    download.download = answer.body.fileName;
    download.textContent = "Download " + answer.body.fileName;
    form.hidden = true;
    const result = document.getElementById("phone-result");
    result.hidden = false;
    document.getElementById("phone-result-heading").focus();
  });
})();
`;
