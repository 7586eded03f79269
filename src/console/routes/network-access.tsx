import { type Context, Hono } from "hono";
import type { Schema } from "../../../client/index.ts";
import { type FormError, formFields, refusal, worded } from "../form";
import type { Names } from "../humanize";
import { ACCESS_FIELDS, documentText, placeInDocument } from "../pages/access-editor";
import { AccessPreviewPage } from "../pages/access-preview";
import { testIndexOf } from "../pages/access-tables";
import { NetworkAccessPage } from "../pages/network-access";
import type { SignedInEnv } from "../types";
import { failure, type LoadedNetwork, loadNetwork } from "./network-context";

/** /networks/:id/access: the access policy (docs/access.md) read, previewed, applied; the mode; who reaches a node. */
export const networkAccessRoutes = new Hono<SignedInEnv>();

type C = Context<SignedInEnv>;
type Document = Schema<"AccessPolicyDocument">;

/** What the editor shows after a refusal: the text typed and the revision it started from (else the policy in force), the refusal and its status. */
interface Kept {
  text?: string;
  baseRevision?: number;
  error: FormError;
  status: number;
}

/** The API's field paths ("rules.0.src.1") named in the summary as the document's rule or test, ids as names. */
function wordedForDocument(error: FormError, names: Names): FormError {
  const fields = (error.fields ?? []).map((field) => ({ ...field, message: `${placeInDocument(field.path)}: ${field.message}` }));
  return worded({ message: error.message, fields }, { names, fields: ACCESS_FIELDS });
}

async function readNodes(c: C, networkId: string) {
  // One page of the API's list: the names of up to 200 nodes, and the nodes the "who can reach" form offers.
  const nodes = await c.var.api.GET("/api/v1/nodes", { params: { query: { networkId, limit: 200 } } });
  const items = nodes.data?.items ?? [];
  return { items, names: new Map(items.map((node) => [node.id, node.name] as const)) as Names };
}

async function renderAccess(c: C, loaded: LoadedNetwork, kept?: Kept) {
  const id = loaded.network.id;
  const path = { params: { path: { id } } };
  const policy = await c.var.api.GET("/api/v1/networks/{id}/access-policy", path);
  if (!policy.data) return failure(c, policy);
  const { rules, tests } = policy.data;
  // Preview and "who can reach" say whose devices are whose: the API answers them to managers only.
  const chosen = loaded.canChange ? c.req.query("node") : undefined;
  const [nodes, results, reach] = await Promise.all([
    readNodes(c, id),
    // The stored tests' results now: the preview of the document in force runs them and applies nothing.
    tests.length > 0 && loaded.canChange
      ? c.var.api.POST("/api/v1/networks/{id}/access-policy/preview", { ...path, body: { rules, tests } })
      : undefined,
    chosen ? c.var.api.GET("/api/v1/networks/{id}/access-sources", { params: { path: { id }, query: { dst: chosen } } }) : undefined,
  ]);
  const failing = new Map<number, string>();
  for (const test of results?.data?.failingTests ?? []) {
    const index = testIndexOf(test.path);
    if (index !== undefined) failing.set(index, worded({ message: test.message }, { names: nodes.names }).message);
  }
  if (reach && !reach.data) return failure(c, reach);
  const page = (
    <NetworkAccessPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      {...loaded}
      policy={policy.data}
      failing={failing}
      names={nodes.names}
      nodes={nodes.items}
      reach={reach?.data && chosen ? { nodeId: chosen, answer: reach.data } : undefined}
      text={kept?.text ?? documentText(policy.data)}
      baseRevision={kept?.baseRevision ?? policy.data.revision}
      applied={c.req.query("applied")}
      error={kept && wordedForDocument(kept.error, nodes.names)}
    />
  );
  return c.html(page, (kept?.status ?? 200) as 200);
}

/** The editor's text as a document; text that is not JSON is refused here, placed at the field, 400. */
function parseDocument(text: string): { document: Document } | { error: FormError } {
  try {
    return { document: JSON.parse(text) as Document };
  } catch (error) {
    const message = `The policy document is not JSON: ${(error as Error).message}`;
    return { error: { message, fields: [{ path: "document", message }] } };
  }
}

const revisionOf = (values: Record<string, string>) => Math.max(0, Number.parseInt(values.revision ?? "0", 10) || 0);

networkAccessRoutes.get("/networks/:id/access", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  return renderAccess(c, loaded);
});

networkAccessRoutes.post("/networks/:id/access/mode", async (c) => {
  const { accessMode } = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const changed = await c.var.api.PATCH("/api/v1/networks/{id}", {
    params: { path: { id: loaded.network.id } },
    body: { accessMode: accessMode === "policy" ? "policy" : "open" },
  });
  if (changed.data) return c.redirect(`/networks/${loaded.network.id}/access`, 303);
  const { message, fields, status } = refusal(changed);
  return renderAccess(c, loaded, { error: { message, fields }, status });
});

/** The editor's form as preview and apply take it: the network, the text, the revision it started from and the
 * document parsed; or the page to answer with (the network refused, or the text is not a JSON document: 400). */
async function submittedDocument(c: C) {
  const values = await formFields(c);
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const text = values.document ?? "";
  const baseRevision = revisionOf(values);
  const parsed = parseDocument(text);
  if ("error" in parsed) return renderAccess(c, loaded, { text, baseRevision, error: parsed.error, status: 400 });
  return { loaded, text, baseRevision, document: parsed.document };
}

networkAccessRoutes.post("/networks/:id/access/preview", async (c) => {
  const submitted = await submittedDocument(c);
  if (submitted instanceof Response) return submitted;
  const { loaded, text, baseRevision, document } = submitted;
  const preview = await c.var.api.POST("/api/v1/networks/{id}/access-policy/preview", {
    params: { path: { id: loaded.network.id } },
    body: document,
  });
  if (!preview.data) {
    const { message, fields, status } = refusal(preview);
    return renderAccess(c, loaded, { text, baseRevision, error: { message, fields }, status });
  }
  const { names } = await readNodes(c, loaded.network.id);
  const failingTests = preview.data.failingTests;
  const error =
    failingTests.length > 0
      ? wordedForDocument(
          {
            message: `${failingTests.length} test${failingTests.length === 1 ? "" : "s"} would fail with this document.`,
            fields: failingTests,
          },
          names,
        )
      : undefined;
  const page = (
    <AccessPreviewPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      network={loaded.network}
      preview={preview.data}
      names={names}
      text={text}
      baseRevision={baseRevision}
      error={error}
    />
  );
  return c.html(page, 200);
});

networkAccessRoutes.post("/networks/:id/access/apply", async (c) => {
  const submitted = await submittedDocument(c);
  if (submitted instanceof Response) return submitted;
  const { loaded, text, baseRevision, document } = submitted;
  const put = await c.var.api.PUT("/api/v1/networks/{id}/access-policy", {
    params: { path: { id: loaded.network.id }, header: { "if-match": `"${baseRevision}"` } },
    body: document,
  });
  if (put.data) return c.redirect(`/networks/${loaded.network.id}/access?applied=${put.data.revision}`, 303);
  const { message, fields, status } = refusal(put);
  const error =
    put.response.status === 412
      ? {
          message: `The access policy changed since you previewed it (you previewed against revision ${baseRevision}). Nothing was written: read the rules in force above, then preview your document again.`,
        }
      : { message, fields };
  return renderAccess(c, loaded, { text, baseRevision, error, status: put.response.status === 412 ? 412 : status });
});
