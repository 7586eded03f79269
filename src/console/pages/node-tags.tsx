// A node's access-policy tags (docs/access.md) in the nodes table: owners and admins edit them in place
// (PATCH /nodes/:id tags); everyone else reads them.
import type { Schema } from "../../../client/index.ts";
import { errorsAt, type FormError } from "../form";
import { CsrfField, FieldError, invalidAttrs } from "../layout";

/** The form field of a node's tags: what a refusal's `tags.N` path is placed beside. */
export const tagsFieldOf = (nodeId: string) => `tags-${nodeId}`;

/** The words typed into a tags field, each as `tag:<name>` (a bare "web" is "tag:web"); spaces or commas part them. */
export const tagsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter((word) => word !== "")
    .map((word) => (word.startsWith("tag:") ? word : `tag:${word}`));

export function NodeTags({
  node,
  canChange,
  csrfToken,
  base,
  error,
}: {
  node: Schema<"Node">;
  canChange: boolean;
  csrfToken: string;
  base: string;
  error?: FormError;
}) {
  if (!canChange) return <code>{node.tags.join(" ") || "none"}</code>;
  const id = tagsFieldOf(node.id);
  const messages = errorsAt(error, id);
  return (
    <form method="post" action={`${base}/${node.id}/tags`}>
      <CsrfField token={csrfToken} />
      <label for={id} class="visually-hidden">
        Tags of {node.name}
      </label>
      <input id={id} name="tags" value={node.tags.join(" ")} placeholder="tag:web tag:db" {...invalidAttrs(id, messages)} />
      <FieldError field={id} messages={messages} />
      <button type="submit" class="secondary">
        Save tags<span class="visually-hidden"> of {node.name}</span>
      </button>
    </form>
  );
}
