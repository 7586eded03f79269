// `wgo version`: this wgo's version and the control plane's (GET /api/v1/version), and a note when the server
// serves a newer wgo than this one, with the command that installs it (GET /api/v1/install.sh, issue 47).
import { listDevices, loadDevice } from "../device-state.mjs";
import { NetworkError, ApiError } from "../errors.mjs";
import { apiRequest } from "../http.mjs";
import { loadSession } from "../session.mjs";
import { VERSION } from "../version.mjs";

/** -1, 0 or 1: dotted numbers compared part by part (a pre-release suffix is ignored). */
export function compareVersions(a, b) {
  const parts = (v) =>
    String(v)
      .split("-")[0]
      .split(".")
      .map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  return 0;
}

/** The API asked: --api / WGO_API, else the session's, else the first device's, else the default. */
function apiOf(ctx) {
  const device = listDevices(ctx.home)[0];
  return ctx.api ?? loadSession(ctx.home)?.api ?? (device ? loadDevice(ctx.home, device).api : null) ?? ctx.defaultApi;
}

/** @type {import("../args.mjs").Command} */
export const version = {
  name: "version",
  summary: "this wgo's version and the control plane's; says when the server serves a newer wgo, and how to install it",
  usage: "wgo version",
  options: {},
  async run(ctx) {
    const api = apiOf(ctx);
    let server = null;
    try {
      server = await apiRequest({ api, method: "GET", path: "/version" });
    } catch (error) {
      // An older server (404) or none reachable: this wgo's version is still the answer.
      if (!(error instanceof NetworkError || error instanceof ApiError)) throw error;
      ctx.note(`the control plane's version is unknown (${api}: ${error.message})`);
    }
    const served = server?.wgo?.version ?? null;
    const newer = served !== null && compareVersions(served, VERSION) > 0;
    const update = `curl -fsSL ${api}/api/v1/install.sh | sudo sh`;
    if (newer) ctx.note(`${api} serves wgo ${served}, newer than this wgo ${VERSION}: update with \`${update}\``);
    const about = server ? `; ${api} runs ${server.version}${served ? ` and serves wgo ${served}` : ""}` : "";
    ctx.print(`wgo ${VERSION}${about}`, {
      wgo: VERSION,
      api,
      server: server?.version ?? null,
      serverWgo: served,
      newer,
      ...(newer ? { update } : {}),
    });
  },
};
