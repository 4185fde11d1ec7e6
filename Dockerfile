# syntax=docker/dockerfile:1
# pos-sync as a service: the daemon syncs on its schedule into /data/pos.sqlite and serves
# /healthz and /metrics on port 9464.

# --- build: compile better-sqlite3 and the TypeScript, bundle the command line (dist/bin), then
# keep production dependencies only
FROM node:22-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts off for the install (the project's own "prepare" needs the sources), then the native
# module built from source for this image's Node.
RUN npm ci --ignore-scripts \
 && npm_config_build_from_source=true npm rebuild better-sqlite3
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY drizzle ./drizzle
COPY scripts/bundle.mjs ./scripts/
# The compiled module is all the runtime needs of better-sqlite3's build: its sources and object
# files stay behind (about 25 MB).
RUN npx tsc -p tsconfig.build.json \
 && node scripts/bundle.mjs \
 && npm prune --omit=dev --ignore-scripts \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
      node_modules/better-sqlite3/build/deps node_modules/better-sqlite3/build/Release/obj* \
      node_modules/better-sqlite3/build/Release/.deps node_modules/better-sqlite3/build/Release/test_extension.node

# --- run: slim Node 22, no compiler, a non-root user, the database on a volume
FROM node:22-bookworm-slim
# MALLOC_ARENA_MAX: fewer malloc arenas for the process's threads, less memory left in them.
ENV NODE_ENV=production \
    POS_DB_PATH=/data/pos.sqlite \
    POS_HTTP_PORT=9464 \
    POS_HTTP_HOST=0.0.0.0 \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/drizzle ./drizzle
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 9464
HEALTHCHECK --interval=60s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# A small young generation for the thread that writes the database (a flag only node's start
# can set): together with MALLOC_ARENA_MAX, 20-27 MB less resident memory (docs/architecture.md, "How a sync works").
ENTRYPOINT ["node", "--max-semi-space-size=4", "dist/bin/cli.js"]
CMD ["daemon"]
