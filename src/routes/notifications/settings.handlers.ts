import { getConfig } from "../../lib/env";
import { userOf } from "../../lib/principal";
import { listChannels } from "../../services/notifications/channels";
import { configInForce } from "../../services/settings/settings";
import type { AppRouteHandler } from "../../lib/types";
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from "../../services/notifications/backoff";
import { EVENT_DESCRIPTIONS, EVENT_TYPES } from "../../services/notifications/event-types";
import { presentChannel } from "./channels.schemas";
import type * as routes from "./settings.routes";

/** The Cron Trigger in wrangler.toml runs every minute. */
const CRON_INTERVAL_SECONDS = 60;

export const getSettings: AppRouteHandler<typeof routes.getSettings> = async (c) => {
  const config = await configInForce(getConfig(c.env), c.var.db);
  const channels = await listChannels(c.var.db, userOf(c).userId);
  return c.json(
    {
      channels: channels.map(presentChannel),
      eventTypes: EVENT_TYPES.map((type) => ({ type, description: EVENT_DESCRIPTIONS[type] })),
      detection: {
        offlineAfterSeconds: config.OFFLINE_AFTER_SECONDS,
        driftAfterSeconds: config.DRIFT_AFTER_SECONDS,
        intervalSeconds: CRON_INTERVAL_SECONDS,
      },
      retries: { delaysSeconds: [...RETRY_DELAYS_SECONDS], maxAttempts: MAX_ATTEMPTS },
    },
    200,
  );
};
