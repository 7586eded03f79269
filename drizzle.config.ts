import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema/index.ts",
  out: "./migrations",
  casing: "snake_case",
  // Flat NNNN_name.sql files: the layout wrangler and the vitest plugin read.
  migrations: { prefix: "index" },
});
