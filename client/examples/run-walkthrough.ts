/**
 * Runs the walkthrough against a server and prints what it made and read, e.g. against `npm run dev`:
 *
 *   npm run client:build
 *   API_URL=http://127.0.0.1:8787 WGO_EMAIL=admin@example.com WGO_PASSWORD=dev-admin-password \
 *     node client/dist/examples/run-walkthrough.js
 *
 * `--json` prints one JSON object (what the e2e test reads) instead of the summary.
 */
import { runWalkthrough } from "./walkthrough.js";

/** Each setting has the `npm run dev` default, so the example runs against a dev server as it is. */
const env = (name: string, fallback: string) => process.env[name] ?? fallback;

const result = await runWalkthrough({
  baseUrl: env("API_URL", "http://127.0.0.1:8787"),
  email: env("WGO_EMAIL", "admin@example.com"),
  password: env("WGO_PASSWORD", "dev-admin-password"),
});

if (process.argv.includes("--json")) {
  console.log(JSON.stringify(result));
} else {
  const { network, gatewayNodes, policy, laptopConfig, runtimeStatus } = result;
  console.log(`network ${network.name} (${network.id}) ${network.cidr}, DNS ${network.dnsDomain}`);
  console.log(`policy ${policy.name}: ${policy.destinationCidr} via ${gatewayNodes.map((node) => node.name).join(" -> ")}`);
  console.log(`laptop routing intents: ${JSON.stringify(laptopConfig.routingIntent)}`);
  console.log(`\n# laptop, wg-quick\n${result.laptopWgQuick}`);
  console.log(`# Corefile (unchanged on a second read: ${result.corefileUnchanged})\n${result.corefile}`);
  console.log(
    `runtime status: routing desired ${runtimeStatus.routing.desiredRevision}, unreported ${runtimeStatus.routing.unreported.length}`,
  );
}
