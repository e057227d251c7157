# syntax=docker/dockerfile:1
# Build: compile the service and the SDK it links; the runtime stage gets dist/ and production
# dependencies only, runs as a non-root user, and node is PID 1 so that SIGTERM reaches it.

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY packages ./packages
COPY scripts ./scripts
COPY bin ./bin
COPY src ./src
# npm ci runs `prepare`: dist/ and the workspace packages' dist/ are built here.
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 ARBITER_DATA_DIR=/data
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY packages ./packages
# Production dependencies only; the one native addon (better-sqlite3) is built for this image.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && apt-get purge -y python3 make g++ && apt-get autoremove -y
COPY --from=build /app/dist ./dist
COPY --from=build /app/packages/sdk/dist ./packages/sdk/dist
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Not `npm start`: node itself is PID 1 and receives SIGTERM (docker stop) directly.
CMD ["node", "dist/cli.js", "serve"]
