// The phone in the first run: the console's "Add a phone or tablet" page makes the key pair in Chromium and shows
// the config as a QR code; the test reads the code back from a screenshot of what the page shows (jsQR), as a
// phone's camera would, and checks that the downloaded .conf file is the same config.
import { readFileSync } from "node:fs";
import jsQR from "jsqr";
import type { Browser, Page } from "playwright-core";

interface Pixels {
  width: number;
  height: number;
  data: number[];
}

/** The text of the QR code shown in `#phone-qr`, decoded from a screenshot of it. */
export async function decodeShownQr(browser: Browser, page: Page): Promise<string> {
  const png = await page.locator("#phone-qr svg").screenshot();
  // A page of its own (no origin, no network) turns the PNG into pixels; jsQR decodes them in Node.
  const blank = await browser.newPage();
  try {
    const pixels = await blank.evaluate<Pixels>(`(async () => {
      const image = new Image();
      image.src = "data:image/png;base64,${png.toString("base64")}";
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0);
      return { width: image.width, height: image.height, data: Array.from(context.getImageData(0, 0, image.width, image.height).data) };
    })()`);
    const code = jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height);
    if (!code) throw new Error(`no QR code found in a ${pixels.width}×${pixels.height} screenshot of the page's code`);
    return code.data;
  } finally {
    await blank.context().close();
  }
}

/** On the phone page: name the device, make its config, and answer the QR code's text and the downloaded file's. */
export async function addPhone(browser: Browser, page: Page, name: string): Promise<{ qr: string; file: string; fileName: string }> {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Platform").selectOption("Android");
  await page.getByRole("button", { name: "Make the key pair and the config" }).click();
  await page.getByRole("heading", { name: "Scan it with the WireGuard app" }).waitFor();
  const qr = await decodeShownQr(browser, page);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /^Download / }).click()]);
  const path = await download.path();
  return { qr, file: readFileSync(path, "utf8"), fileName: download.suggestedFilename() };
}

/** The private key line of a wg-quick text (the phone's own, made in the browser). */
export const privateKeyOf = (config: string) => /^PrivateKey = (\S+)$/m.exec(config)?.[1] ?? "";
