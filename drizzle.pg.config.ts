import { defineConfig } from "drizzle-kit";

/** The PostgreSQL migrations (src/db/pg/schema.ts mirrors the SQLite tables). */
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/pg/schema.ts",
  out: "./drizzle/pg",
});
