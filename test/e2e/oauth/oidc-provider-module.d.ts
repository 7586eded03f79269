// The slice of oidc-provider's API these tests use (the package ships no types; @types lags its majors).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface ClientMetadata {
    client_id: string;
    client_secret: string;
    redirect_uris: string[];
    grant_types: string[];
    response_types: string[];
    token_endpoint_auth_method: string;
  }

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients: ClientMetadata[];
    claims: Record<string, string[]>;
    cookies: { keys: string[] };
    features: { devInteractions: { enabled: boolean } };
    findAccount(ctx: unknown, id: string): Promise<Account | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
