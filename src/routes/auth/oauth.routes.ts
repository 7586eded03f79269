import { createRoute, z } from "@hono/zod-openapi";
import { errorResponseFor, errorResponses, jsonResponse } from "../../lib/openapi";
import { SignInResultSchema } from "./auth.schemas";

const tags = ["OAuth"];

export const ProviderParam = z.object({
  provider: z
    .string()
    .min(1)
    .max(32)
    .openapi({ param: { name: "provider", in: "path" }, example: "github", description: "github, google or oidc" }),
});

/**
 * Who finishes the flow: `api` (default) answers the token pair as JSON at this callback; `console` makes the
 * provider return to the console's own callback (/sign-in/oauth/{provider}/callback), which calls this one
 * server-side and keeps the tokens in httpOnly cookies. Both redirect URIs must be registered with the provider.
 */
const ClientQuery = z
  .enum(["api", "console"])
  .optional()
  .openapi({ description: "api (default) or console: where the provider returns to" });

/** The provider's redirect; oauth4webapi reads the parameters from the URL itself. */
const CallbackQuery = z.looseObject({
  client: ClientQuery,
  code: z.string().max(2048).optional(),
  state: z.string().max(256).optional(),
  error: z.string().max(256).optional(),
});

export const start = createRoute({
  method: "get",
  path: "/auth/oauth/{provider}/start",
  operationId: "startOAuth",
  tags,
  summary: "Redirect to the provider (authorization code + PKCE S256, state bound to this browser by a cookie)",
  description:
    "Public. Redirects a browser to the provider's authorization page (authorization code with PKCE S256); the state is bound to this browser by the wg_oauth_state cookie for 10 minutes. 404 for a provider that is not configured. `client=console` makes the provider return to the web console's callback instead (register both redirect URIs).",
  request: { params: ProviderParam, query: z.object({ client: ClientQuery }) },
  responses: {
    302: { description: "To the provider's authorization page; sets the wg_oauth_state cookie (10 min)" },
    ...errorResponses(404, 422),
    ...errorResponseFor(502, "The provider's discovery document could not be fetched (code bad_gateway)"),
  },
});

export const callback = createRoute({
  method: "get",
  path: "/auth/oauth/{provider}/callback",
  operationId: "finishOAuth",
  tags,
  summary: "The provider's redirect back: signs in the linked account",
  description:
    "Public: the provider's code and the state cookie are the credential. " +
    "Identities are keyed on (provider, subject). An unlinked identity links to the account of the same " +
    "email only when the provider marks that email verified; OAuth never creates accounts. MFA applies: an account " +
    "with MFA on gets `{ mfaRequired, mfaToken }`.",
  request: { params: ProviderParam, query: CallbackQuery },
  responses: {
    200: jsonResponse(SignInResultSchema, "Signed in, or an MFA challenge"),
    ...errorResponses(401, 403, 404, 422),
    ...errorResponseFor(502, "The provider could not be reached (code bad_gateway)"),
  },
});
