import { fuzzSuite } from "./run";

// Generated and mutated requests for every route this suite claims (run.ts): never a 5xx, always the
// envelope, and no data change for a rejected request.
await fuzzSuite("networks");
