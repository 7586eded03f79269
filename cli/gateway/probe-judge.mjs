// How the gateway agent judges a forwarding probe from its stream of echoes: a probe starts up, goes down
// after `downAfter` lost echoes in a row and up again after `upAfter` replies in a row, so one lost echo
// (or one in three) never fails a pool over. The rules come from the server (desired state `probeRules`);
// the agent keeps its defaults for anything missing or out of range.

/** @typedef {{ intervalMs: number, downAfter: number, upAfter: number }} ProbeRules */

/** @type {ProbeRules} */
export const DEFAULT_PROBE_RULES = Object.freeze({ intervalMs: 100, downAfter: 4, upAfter: 4 });

/** What the agent accepts of the server's rules: ping cannot go below 100 ms, and slower than 5 s is no longer fast. */
const LIMITS = { intervalMs: [100, 5_000], downAfter: [1, 20], upAfter: [1, 20] };

/**
 * The server's rules, each field taken when it is an integer in range and the default otherwise (a rule
 * this agent does not understand must not stop it probing).
 * @returns {ProbeRules}
 */
export function probeRulesFrom(given) {
  const rules = { ...DEFAULT_PROBE_RULES };
  if (given === null || typeof given !== "object") return rules;
  for (const [field, [min, max]] of Object.entries(LIMITS)) {
    const value = given[field];
    if (Number.isInteger(value) && value >= min && value <= max) rules[field] = value;
  }
  return rules;
}

export const sameRules = (a, b) => a.intervalMs === b.intervalMs && a.downAfter === b.downAfter && a.upAfter === b.upAfter;

/**
 * One line of `ping -O -n`: true for a reply, false for an echo that went unanswered (-O prints "no answer
 * yet for icmp_seq=N" as the next one goes out), null for anything else (the header, errors, duplicates).
 * A reply later than the interval counts twice, once lost and once answered: a slow path stays up.
 */
export function echoOf(line) {
  if (/^no answer yet for icmp_seq=\d+/.test(line)) return false;
  if (/ bytes from .*icmp_seq=\d+/.test(line) && !line.includes("DUP!")) return true;
  return null;
}

/** @typedef {{ up: boolean, losses: number, replies: number }} Judgement */

/** @returns {Judgement} */
export const freshJudgement = (up = true) => ({ up, losses: 0, replies: 0 });

/**
 * Counts one echo into the judgement (changed in place); says whether the probe turned (up to down or back).
 * @param {Judgement} judgement
 * @param {boolean} answered
 * @param {ProbeRules} rules
 */
export function countEcho(judgement, answered, rules) {
  if (answered) {
    judgement.losses = 0;
    judgement.replies += 1;
    if (judgement.up || judgement.replies < rules.upAfter) return false;
    judgement.up = true;
    return true;
  }
  judgement.replies = 0;
  judgement.losses += 1;
  if (!judgement.up || judgement.losses < rules.downAfter) return false;
  judgement.up = false;
  return true;
}
