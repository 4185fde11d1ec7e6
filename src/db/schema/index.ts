/** The tables pos-sync writes, and the relations of the contract they store (views: views.ts). */
export * from "./archive.js";
export * from "./bookkeeping.js";
export * from "./catalog.js";
export * from "./deliveries.js";
export * from "./history.js";
export * from "./location.js";
export * from "./orders.js";
export * from "./relations.js";
export * from "./reports.js";
export * from "./rollups.js";
