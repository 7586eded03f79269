declare global {
  namespace Cloudflare {
    interface Env {
      /** Runs per route in test/fuzz (vitest.config.ts passes the shell's FUZZ_RUNS). */
      FUZZ_RUNS?: string;
      /** Base seed of test/fuzz; printed by every run so a failure reproduces. */
      FUZZ_SEED?: string;
      /** Rounds per case of test/security/revocation-races.test.ts (the shell's RACE_ROUNDS). */
      RACE_ROUNDS?: string;
    }
  }
}
export {};
