// The rules live beside the network objects' presence check, which judges device nodes by them too.
export { type Cutoffs, cutoffs, MAX_TRANSITIONS_PER_RUN } from "../core/presence-rules";
