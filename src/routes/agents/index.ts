import { createRouter } from "../../lib/create-router";
import { agentDaemonRouter } from "./daemon";
import { agentInventoryRouter } from "./inventory";
import { agentManagerRouter } from "./manager";
import { agentSelfRouter } from "./self";

/** The agents' own routes (/agents/me…, /agents/enrol) come before /agents/{id}, which would shadow them. */
export const agentsRouter = createRouter()
  .route("/", agentSelfRouter)
  .route("/", agentManagerRouter)
  .route("/", agentDaemonRouter)
  .route("/", agentInventoryRouter);
