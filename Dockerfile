# syntax=docker/dockerfile:1
# The Gatehouse server and its `gatehouse` CLI. Runs `gatehouse serve` as the unprivileged `node`
# user; any other command replaces it (`docker run IMAGE migrate`). See docs/deploy.md.
#
#   docker build -t gatehouse .
#   docker run -e DATABASE_URL=postgres://… -e GATEHOUSE_SERVER_KEY=… -e SMTP_HOST=… gatehouse

# Node 22 LTS: the packages ask for Node >= 22.12, and the repository's tooling for >= 22.13.
ARG NODE_IMAGE=node:22-slim

# Compilers for the native modules (better-sqlite3, the argon2 and bcrypt bindings), used only when
# no prebuilt binary fits the platform; they never reach the final image.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# npm ci reads every workspace named by the lockfile, so each one's package.json comes along.
COPY package.json package-lock.json ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/client/package.json packages/client/
COPY packages/server/package.json packages/server/
COPY packages/widget/package.json packages/widget/
COPY packages/testing/package.json packages/testing/
COPY apps/demo/package.json apps/demo/
COPY e2e/package.json e2e/
COPY bench/package.json bench/

# Compiles the wire protocol and the server (TypeScript from the root's dev dependencies).
FROM toolchain AS build
RUN npm ci --include-workspace-root -w @gatehouse/protocol -w @gatehouse/server \
  --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/protocol packages/protocol
COPY packages/server packages/server
RUN npm run build -w @gatehouse/protocol -w @gatehouse/server

# The server's production dependencies only.
FROM toolchain AS deps
RUN npm ci --omit=dev -w @gatehouse/server --no-audit --no-fund \
  && mkdir -p packages/protocol/node_modules packages/server/node_modules

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
  PORT=3000 \
  DATABASE_URL=sqlite:/data/gatehouse.db
WORKDIR /app
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/packages/protocol/node_modules packages/protocol/node_modules
COPY --from=deps /app/packages/server/node_modules packages/server/node_modules
COPY --from=build /app/packages/protocol/package.json packages/protocol/
COPY --from=build /app/packages/protocol/dist packages/protocol/dist
COPY --from=build /app/packages/server/package.json packages/server/
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/server/bin packages/server/bin
# The SQLite database of a single instance, when DATABASE_URL names no other; writable by `node`.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
# Liveness only: the load balancer asks /readyz, which also checks the database and migrations.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "packages/server/bin/gatehouse.cjs"]
CMD ["serve"]
