# Evons match service. Multi-stage: compile with every dependency, run compiled JavaScript with
# production dependencies only, as a non-root user.
#   docker build -t evons .
#   docker run -p 3000:3000 -v evons-data:/data evons                        # embedded PGlite in /data
#   docker run -p 3000:3000 -e DATABASE_URL=postgresql://user:pw@db/evons evons   # PostgreSQL

FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts tsconfig.json tsconfig.build.json ./
# `postinstall` runs `prisma generate` (no engine download: engineType = "client") into src/generated.
RUN npm ci --no-audit --no-fund
COPY src ./src
COPY scripts/build.ts ./scripts/
# scripts/build.ts: src/ (with the generated Prisma client) to dist/ with source maps, plus the watch page's plain files.
RUN npm run build

FROM node:22-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the only one a production dependency has is Prisma's generate, done above.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:22-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    LOG_LEVEL=info
WORKDIR /app
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json ./
# The migrations are applied at start (src/persistence/migrate.ts resolves ../../prisma/migrations from dist/persistence).
COPY --chown=node:node prisma/migrations ./prisma/migrations
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The server applies pending migrations before it listens (safe when several nodes start at once).
# exec form: signals reach node, which drains requests on SIGTERM.
CMD ["node", "--enable-source-maps", "dist/server.js"]
