import { type Context, Hono } from "hono";
import { need, onFailure } from "../failure";
import { formFields, refusal, worded } from "../form";
import { searchList, searchWords } from "../list-search";
import { AdminInventoryPage, type AdminInventoryProps, INVENTORY_FIELDS, INVENTORY_SENTENCES, returnPath } from "../pages/admin-inventory";
import type { SignedInEnv } from "../types";

/** Regions and gateways (platform admins; the API refuses everyone else's changes). */
export const adminInventoryRoutes = new Hono<SignedInEnv>();
adminInventoryRoutes.onError(onFailure);

/** Regions, and a page of gateways: those whose name or host contains `?q=` when searched (list-search.ts). */
async function inventoryView(c: Context<SignedInEnv>) {
  const q = searchWords(c.req.query("q"));
  const read = async (at: string | undefined, limit: number) =>
    need(await c.var.api.GET("/api/v1/gateways", { params: { query: { limit, ...(at ? { cursor: at } : {}) } } }));
  const [regions, gateways] = await Promise.all([
    c.var.api.GET("/api/v1/regions", { params: { query: { limit: 200 } } }),
    searchList(read, (gateway) => [gateway.name, gateway.publicHost], q, c.req.query("cursor")),
  ]);
  return {
    user: c.var.user,
    csrfToken: c.var.csrfToken,
    regions: need(regions).items,
    gateways: gateways.items,
    nextCursor: gateways.nextCursor,
    search: { q, searched: gateways.searched },
  };
}

async function answer(
  c: Context<SignedInEnv>,
  result: { error?: unknown; response: Response },
  form: NonNullable<AdminInventoryProps["error"]>["form"],
  values: Record<string, string> = {},
) {
  const back = returnPath(values.back);
  if (result.response.ok) return c.redirect(back ? `/admin/inventory?back=${encodeURIComponent(back)}` : "/admin/inventory", 303);
  const { message, fields, status } = refusal(result);
  const view = await inventoryView(c);
  const names = new Map([...view.regions, ...view.gateways].map((item) => [item.id, item.name] as const));
  const error = { ...worded({ message, fields }, { names, fields: INVENTORY_FIELDS[form], sentences: INVENTORY_SENTENCES }), form };
  return c.html(<AdminInventoryPage {...view} error={error} values={values} back={back} />, status);
}

// The inventory is readable by every user (policies name gateways); the page is for platform admins.
adminInventoryRoutes.get("/admin/inventory", async (c) => {
  if (c.var.user.platformRole !== "admin") return c.redirect("/admin", 303);
  return c.html(<AdminInventoryPage {...(await inventoryView(c))} back={returnPath(c.req.query("back"))} />);
});

adminInventoryRoutes.post("/admin/regions", async (c) => {
  const values = await formFields(c);
  return answer(c, await c.var.api.POST("/api/v1/regions", { body: { name: values.name ?? "" } }), "region", values);
});

adminInventoryRoutes.post("/admin/gateways", async (c) => {
  const values = await formFields(c);
  const body = {
    regionId: values.regionId ?? "",
    name: values.name ?? "",
    ...(values.publicHost?.trim() ? { publicHost: values.publicHost.trim() } : {}),
    ...(values.capacity?.trim() ? { capacity: Number(values.capacity) } : {}),
  };
  return answer(c, await c.var.api.POST("/api/v1/gateways", { body }), "gateway", values);
});

adminInventoryRoutes.post("/admin/gateways/:id/status", async (c) => {
  const { status } = await formFields(c);
  const body = { status: status as "active" | "draining" | "disabled" };
  return answer(c, await c.var.api.PATCH("/api/v1/gateways/{id}", { params: { path: { id: c.req.param("id") } }, body }), "row");
});
