import { OpenAPIHono } from "@hono/zod-openapi";
import type { z } from "zod";
import { ApiError, type FieldError } from "./errors";
import type { AppEnv } from "./types";

/** zod issues → the envelope's fields[]: a dotted path ("gatewayPath.1") and a sentence. */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: path ? `${path}.${key}` : key, message: "Unknown field" }));
    }
    return [{ path, message: issue.message }];
  });
}

export const validationHook = (result: { success: boolean; error?: z.ZodError; target?: string }) => {
  if (!result.success && result.error) {
    throw new ApiError("VALIDATION_ERROR", `The request ${result.target ?? "input"} is not valid`, {
      fields: toFieldErrors(result.error.issues),
    });
  }
};

export const createRouter = () => new OpenAPIHono<AppEnv>({ strict: false, defaultHook: validationHook });
