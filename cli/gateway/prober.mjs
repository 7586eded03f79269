// The forwarding probes of `wgo gateway run`, run continuously: one long-lived `ping -O` per probe of
// every held node, in the node's namespace, judged echo by echo (probe-judge.mjs). A report reads the
// judgement at once instead of pinging; a probe that turns down or up calls `onTurn`, which sends a report
// straight away. A probe keeps its process while the server asks for it; a changed probe, a node that
// leaves and the agent's stop end theirs (and wait until it is reaped).
import { countEcho, echoOf, freshJudgement, sameRules } from "./probe-judge.mjs";
import { heldNodeIds, loadNode } from "./state.mjs";

/** At most this many probes a node (the server's limit). */
export const MAX_PROBES = 32;

/** @typedef {{ target: string, acrossNodeId: string }} Probe */
/** @typedef {{ nodeId: string, netns: string | null, probes?: Probe[] }} ProbedNode */

const keyOf = (nodeId, netns, probe) => JSON.stringify([nodeId, netns, probe.acrossNodeId, probe.target]);

/** Runs the probes the nodes held in `dir` carry now (each node's record keeps what its last apply was asked). */
export async function probeHeldNodes(prober, dir, rules) {
  const nodes = heldNodeIds(dir)
    .map((id) => loadNode(dir, id))
    .filter(Boolean);
  await prober.sync(nodes, rules);
}

/**
 * @param {{ systemFor: (netns: string | null) => import("../system.mjs").System, log: (line: string) => void,
 *   onTurn: () => void, rules: import("./probe-judge.mjs").ProbeRules }} options
 */
export function createProber({ systemFor, log, onTurn, rules: initialRules }) {
  /** @type {Map<string, ReturnType<typeof startProbe>>} */
  const running = new Map();
  let rules = initialRules;
  return {
    /**
     * Runs exactly the probes of `nodes` under `nextRules`. New rules restart every process (ping takes
     * its interval once) but keep each probe's up or down: a restart must not report a broken path as up.
     * @param {ProbedNode[]} nodes
     */
    async sync(nodes, nextRules) {
      const restart = !sameRules(rules, nextRules);
      rules = nextRules;
      const wanted = new Map();
      for (const node of nodes) {
        for (const probe of (node.probes ?? []).slice(0, MAX_PROBES)) wanted.set(keyOf(node.nodeId, node.netns, probe), { node, probe });
      }
      const stopping = [];
      const keptUp = new Map();
      for (const [key, probe] of running) {
        if (!restart && wanted.has(key)) continue;
        if (wanted.has(key)) keptUp.set(key, probe.up);
        running.delete(key);
        stopping.push(probe.stop());
      }
      await Promise.all(stopping);
      for (const [key, { node, probe }] of wanted) {
        if (running.has(key)) continue;
        const label = `node ${node.nodeId}: probe of ${probe.target} across ${probe.acrossNodeId}`;
        running.set(
          key,
          startProbe({ sys: systemFor(node.netns), target: probe.target, rules, up: keptUp.get(key) ?? true, label, log, onTurn }),
        );
      }
    },

    /** The judged state of a node's probes, for its report: a probe not (yet) running counts as up, as a new one starts. */
    results(nodeId, netns, probes) {
      return probes.slice(0, MAX_PROBES).map((probe) => ({
        acrossNodeId: probe.acrossNodeId,
        target: probe.target,
        ok: running.get(keyOf(nodeId, netns, probe))?.up ?? true,
      }));
    },

    /** Ends every probe and waits until each ping is reaped. */
    async stop() {
      const all = [...running.values()];
      running.clear();
      await Promise.all(all.map((probe) => probe.stop()));
    },
  };
}

/** How often a ping that keeps ending is started again once its probe is down (it only needs to notice a return). */
const DOWN_RETRY_MS = 1_000;

/**
 * One probe's ping. A ping that ends on its own (no route yet: "connect: Network is unreachable", exit 2)
 * counts as a lost echo and starts again an interval later (a second once down), so a path that is gone
 * turns the probe down as fast as one that drops echoes; the first such end of a run is logged, not every retry.
 */
function startProbe({ sys, target, rules, up, label, log, onTurn }) {
  const judgement = freshJudgement(up);
  let stopped = false;
  let failing = false;
  /** @type {import("../system.mjs").LineStream | null} */
  let stream = null;
  /** @type {NodeJS.Timeout | undefined} */
  let retry;
  const count = (answered) => {
    if (countEcho(judgement, answered, rules)) {
      log(`${label} is ${judgement.up ? "up" : "down"}`);
      onTurn();
    }
  };
  const launch = () => {
    if (stopped) return;
    const argv = ["ping", "-O", "-n", "-i", String(rules.intervalMs / 1000), target];
    stream = sys.streamLines(argv, (line) => {
      const echo = echoOf(line);
      if (echo === null || stopped) return;
      failing = false;
      count(echo);
    });
    stream.exited.then(({ code, stderr }) => {
      if (stopped) return;
      if (!failing) log(`${label}: ping ended (exit ${code}${stderr.trim() ? `: ${stderr.trim().split("\n").pop()}` : ""}); retrying`);
      failing = true;
      count(false);
      retry = setTimeout(launch, judgement.up ? rules.intervalMs : Math.max(rules.intervalMs, DOWN_RETRY_MS));
    });
  };
  launch();
  return {
    get up() {
      return judgement.up;
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await stream?.stop();
    },
  };
}
