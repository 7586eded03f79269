export * from "./users";
export * from "./sessions";
export * from "./refresh-tokens";
export * from "./groups";
export * from "./memberships";
export * from "./networks";
