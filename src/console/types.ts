import type { ApiClient } from "../../client/index.ts";
import type { Env } from "../lib/env";

/** The signed-in person as the console shows them (from GET /users/me). */
export interface ConsoleUser {
  id: string;
  email: string;
  name: string;
  platformRole: "admin" | "user";
}

export interface ConsoleEnv {
  Bindings: Env;
  Variables: {
    /** The CSRF token every form of this response carries (csrf.ts). */
    csrfToken: string;
    /** The API, called in-process with the session's bearer token (or none before sign-in). */
    api: ApiClient;
    user?: ConsoleUser;
  };
}

/** Pages behind sign-in: `user` is set (requireUser in index.tsx redirected everyone else). */
export interface SignedInEnv extends ConsoleEnv {
  Variables: ConsoleEnv["Variables"] & { user: ConsoleUser };
}
