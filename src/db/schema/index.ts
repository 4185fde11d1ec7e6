/** The database contract: every table pos-sync writes (views live in a SQL migration). */
export * from "./archive.js";
export * from "./bookkeeping.js";
export * from "./catalog.js";
export * from "./history.js";
export * from "./location.js";
export * from "./orders.js";
export * from "./reports.js";
export * from "./rollups.js";
