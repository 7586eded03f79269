import { Hono } from "hono";
import { formFields, refusal } from "../form";
import { AddDevicePage } from "../pages/add-device";
import { AddPhonePage, APP_PLATFORMS } from "../pages/add-phone";
import type { SignedInEnv } from "../types";
import { loadNetwork } from "./network-context";

/** A network's "Add a device" page, and the phone page whose script registers a key pair made in the browser. */
export const networkDeviceRoutes = new Hono<SignedInEnv>();

networkDeviceRoutes.get("/networks/:id/add-device", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const origin = new URL(c.req.url).origin;
  return c.html(
    <AddDevicePage user={c.var.user} csrfToken={c.var.csrfToken} network={loaded.network} origin={origin} canChange={loaded.canChange} />,
  );
});

networkDeviceRoutes.get("/networks/:id/add-phone", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  return c.html(<AddPhonePage user={c.var.user} csrfToken={c.var.csrfToken} network={loaded.network} />);
});

/** The server never holds a private key: the config's PrivateKey line carries this, which the page's script replaces. */
const PLACEHOLDER = "REPLACE_WITH_PRIVATE_KEY";

/**
 * The phone page's script posts the public key it made (fetch, JSON answer). The device enrols as the signed-in
 * user's, like `wgo up` with a session; its device credential is not kept (a WireGuard app has no use for it).
 */
networkDeviceRoutes.post("/networks/:id/add-phone", async (c) => {
  const values = await formFields(c);
  const platform = APP_PLATFORMS.find((entry) => entry === values.platform) ?? "Other";
  const enrolled = await c.var.api.POST("/api/v1/client/devices", {
    body: {
      networkId: c.req.param("id"),
      name: values.name ?? "",
      publicKey: values.publicKey ?? "",
      platform,
      clientVersion: "WireGuard app (config file)",
    },
  });
  if (!enrolled.data) {
    const { message, fields, status } = refusal(enrolled);
    return c.json({ message, fields }, status);
  }
  const { device, config } = enrolled.data;
  return c.json({ name: device.name, fileName: `${device.name}.conf`, config: config.wgQuick, placeholder: PLACEHOLDER }, 201);
});
