import { z } from "@hono/zod-openapi";
import { pageOf } from "../../lib/pagination";
import { Timestamp } from "../../lib/openapi";
import { AccessRuleSchema, AccessTestSchema } from "./access-policies.schemas";

export const RevisionParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "net_..." }),
  revision: z.coerce
    .number()
    .int()
    .min(1)
    .max(999_999_999)
    .openapi({ param: { name: "revision", in: "path" }, example: 3, description: "A revision the policy had (1 is the first PUT)" }),
});

const RevisionFields = {
  revision: z.number().int(),
  createdAt: Timestamp,
  createdBy: z.string().nullable().openapi({ description: "The user who wrote it" }),
};

export const AccessRevisionSummarySchema = z
  .object({
    ...RevisionFields,
    rules: z.number().int().openapi({ description: "How many rules it held" }),
    tests: z.number().int().openapi({ description: "How many tests it held" }),
  })
  .openapi("AccessPolicyRevisionSummary");

export const AccessRevisionPageSchema = pageOf(AccessRevisionSummarySchema, "AccessPolicyRevisionPage");

export const AccessRevisionSchema = z
  .object({ ...RevisionFields, rules: z.array(AccessRuleSchema), tests: z.array(AccessTestSchema) })
  .openapi("AccessPolicyRevision", {
    description: "A document as it was written; PUT its rules and tests to roll back to it (a new revision)",
  });
