import { type Context, Hono } from "hono";
import { asText, type Schema } from "../../../client/index.ts";
import { formFields, worded } from "../form";
import { searchList, searchWords } from "../list-search";
import { EditRecordPage, NetworkDnsPage, RECORD_FIELDS } from "../pages/network-dns";
import type { SignedInEnv } from "../types";
import { attachment, failure, type LoadedNetwork, loadNetwork, optional, type Refused, refusedBy } from "./network-context";

/** /networks/:id/dns: hand-made records (add, edit, delete) and the Corefile and zone file as downloads. */
export const networkDnsRoutes = new Hono<SignedInEnv>();

type C = Context<SignedInEnv>;

async function renderDns(c: C, loaded: LoadedNetwork, refused?: Refused) {
  const q = searchWords(c.req.query("q"));
  const read = async (at: string | undefined, limit: number) => {
    const answer = await c.var.api.GET("/api/v1/networks/{id}/dns/records", {
      params: { path: { id: loaded.network.id }, query: { limit, ...(at ? { cursor: at } : {}) } },
    });
    if (!answer.data) throw answer;
    return answer.data;
  };
  const records = await searchList(read, (record) => [record.name, record.value], q, c.req.query("cursor")).catch(
    (refused: Parameters<typeof failure>[1]) => refused,
  );
  if (!("items" in records)) return failure(c, records);
  const page = (
    <NetworkDnsPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      {...loaded}
      records={records.items}
      nextCursor={records.nextCursor}
      search={{ q, searched: records.searched }}
      error={refused && worded(refused.error, { fields: RECORD_FIELDS })}
      values={refused?.values}
    />
  );
  return c.html(page, refused?.status ?? 200);
}

const recordBody = (values: Record<string, string>): Schema<"DnsRecordInput"> => ({
  name: (values.name ?? "").trim(),
  type: (values.type ?? "A") as Schema<"DnsRecordInput">["type"],
  value: (values.value ?? "").trim(),
  ttl: optional(values.ttl, Number),
});

networkDnsRoutes.get("/networks/:id/dns", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  return renderDns(c, loaded);
});

networkDnsRoutes.post("/networks/:id/dns/records", async (c) => {
  const values = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const created = await c.var.api.POST("/api/v1/networks/{id}/dns/records", {
    params: { path: { id: loaded.network.id } },
    body: recordBody(values),
  });
  if (created.data) return c.redirect(`/networks/${loaded.network.id}/dns`, 303);
  return renderDns(c, loaded, refusedBy(created, values));
});

async function renderEdit(c: C, loaded: LoadedNetwork, refused?: Refused) {
  const record = await c.var.api.GET("/api/v1/dns/records/{id}", { params: { path: { id: c.req.param("recordId") ?? "" } } });
  if (!record.data) return failure(c, record);
  const page = (
    <EditRecordPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      network={loaded.network}
      record={record.data}
      error={refused && worded(refused.error, { fields: RECORD_FIELDS })}
      values={refused?.values}
    />
  );
  return c.html(page, refused?.status ?? 200);
}

networkDnsRoutes.get("/networks/:id/dns/:recordId/edit", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  return renderEdit(c, loaded);
});

networkDnsRoutes.post("/networks/:id/dns/:recordId/edit", async (c) => {
  const values = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const replaced = await c.var.api.PUT("/api/v1/dns/records/{id}", {
    params: { path: { id: c.req.param("recordId") } },
    body: recordBody(values),
  });
  if (replaced.data) return c.redirect(`/networks/${loaded.network.id}/dns`, 303);
  return renderEdit(c, loaded, refusedBy(replaced, values));
});

networkDnsRoutes.post("/networks/:id/dns/:recordId/delete", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const deleted = await c.var.api.DELETE("/api/v1/dns/records/{id}", { params: { path: { id: c.req.param("recordId") } } });
  if (deleted.response.ok) return c.redirect(`/networks/${loaded.network.id}/dns`, 303);
  return renderDns(c, loaded, refusedBy(deleted));
});

/** The API's artifact, byte for byte, as a file: the Corefile, or the zone as an RFC 1035 master file. */
networkDnsRoutes.get("/networks/:id/dns/:artifact{corefile|zonefile}", async (c) => {
  const path = { params: { path: { id: c.req.param("id") } } };
  const network = await c.var.api.GET("/api/v1/networks/{id}", path);
  if (!network.data) return failure(c, network);
  const corefile = c.req.param("artifact") === "corefile";
  const answer = corefile
    ? await c.var.api.GET("/api/v1/networks/{id}/dns/corefile", { ...path, ...asText })
    : await c.var.api.GET("/api/v1/networks/{id}/dns/zonefile", { ...path, ...asText });
  if (typeof answer.data !== "string") return failure(c, answer);
  return attachment(c, answer.data, corefile ? "Corefile" : `${network.data.dnsDomain}.zone`);
});
