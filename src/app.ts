import { createDb } from "./db/client";
import { workerD1 } from "./dev-d1-meter";
import { API_BASE } from "./lib/api-base";
import { createRouter } from "./lib/create-router";
import { DOCUMENT_CONFIG, registerDocumentComponents, withRequestIdHeaders } from "./lib/openapi-document";
import { requestDefaultsAsDescriptions } from "./lib/openapi-request-defaults";
import { limitBody } from "./middleware/body-limit";
import { handleError } from "./middleware/error-handler";
import { notFoundHandler } from "./middleware/not-found";
import { requestId } from "./middleware/request-id";
import { securityHeaders } from "./middleware/security-headers";
import { adminRouter } from "./routes/admin";
import { agentsRouter } from "./routes/agents";
import { auditRouter } from "./routes/audit";
import { authRouter } from "./routes/auth";
import { managedClientRouter } from "./routes/managed-client";
import { devicesRouter } from "./routes/devices";
import { devMailRouter } from "./routes/dev-mail";
import { dnsRouter } from "./routes/dns";
import { docsRouter } from "./routes/docs";
import { enrolmentKeysRouter } from "./routes/enrolment-keys";
import { gatewayPoolsRouter } from "./routes/gateway-pools";
import { groupsRouter } from "./routes/groups";
import { healthRouter } from "./routes/health";
import { inventoryRouter } from "./routes/inventory";
import { accessPoliciesRouter } from "./routes/access-policies";
import { invitesRouter } from "./routes/invites";
import { metricsRouter } from "./routes/metrics";
import { networksRouter } from "./routes/networks";
import { nodesRouter } from "./routes/nodes";
import { notificationsRouter } from "./routes/notifications";
import { routingPoliciesRouter } from "./routes/routing-policies";
import { scimRouter } from "./routes/scim";
import { tunnelsRouter } from "./routes/tunnels";
import { usersRouter } from "./routes/users";
import { wgoRouter } from "./routes/wgo";

export { API_BASE };

export function createApp() {
  const app = createRouter().basePath(API_BASE);

  app.use("*", requestId());
  app.use("*", securityHeaders());
  app.use("*", limitBody());
  app.use("*", async (c, next) => {
    c.set("db", createDb(workerD1(c.env)));
    await next();
  });

  const routers = [
    healthRouter,
    authRouter,
    usersRouter,
    groupsRouter,
    networksRouter,
    nodesRouter,
    routingPoliciesRouter,
    accessPoliciesRouter,
    gatewayPoolsRouter,
    dnsRouter,
    inventoryRouter,
    managedClientRouter,
    devicesRouter,
    enrolmentKeysRouter,
    tunnelsRouter,
    invitesRouter,
    devMailRouter,
    agentsRouter,
    adminRouter,
    scimRouter,
    notificationsRouter,
    auditRouter,
    metricsRouter,
    wgoRouter,
  ];
  for (const router of routers) app.route("/", router);

  registerDocumentComponents(app.openAPIRegistry);
  app.get("/openapi.json", (c) => c.json(withRequestIdHeaders(requestDefaultsAsDescriptions(app.getOpenAPI31Document(DOCUMENT_CONFIG)))));
  app.route("/", docsRouter);

  app.notFound(notFoundHandler(app));
  app.onError(handleError);
  return app;
}
