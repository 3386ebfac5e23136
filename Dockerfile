# Evons match service. Multi-stage: install with the lockfile, run as a non-root user.
#   docker build -t evons .
#   docker run -p 3000:3000 -v evons-data:/data evons                        # embedded PGlite in /data
#   docker run -p 3000:3000 -e DATABASE_URL=postgresql://user:pw@db/evons evons   # PostgreSQL
# The server runs with tsx (TypeScript at runtime), so dev dependencies stay installed.

FROM node:22-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
# `postinstall` runs `prisma generate` (no engine download: engineType = "client").
RUN npm ci --no-audit --no-fund

FROM node:22-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    LOG_LEVEL=info
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json package-lock.json tsconfig.json prisma.config.ts ./
COPY --chown=node:node prisma ./prisma
COPY --chown=node:node scripts ./scripts
COPY --chown=node:node src ./src
# The generated Prisma client lives under src/generated (gitignored): take it from the deps stage.
COPY --from=deps --chown=node:node /app/src/generated ./src/generated
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Migrations first (safe when several nodes start at once), then the server. exec: signals reach node.
CMD ["sh", "-c", "npm run --silent db:migrate && exec node --import tsx src/server.ts"]
