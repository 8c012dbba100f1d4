# Mixroom as one image for every role (api, worker, sfu: MIXROOM_ROLES picks). Not built in this
# repository's CI (no container registry is reachable there); docs/OPERATIONS.md, "Containers".
FROM node:24-bookworm-slim AS build
WORKDIR /app
# Manifests first: the dependency layer is rebuilt only when one of them changes.
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/bridge/package.json packages/bridge/
COPY packages/contracts/package.json packages/contracts/
COPY packages/shared/package.json packages/shared/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim
# ffmpeg probes, decodes and encodes every upload; the server finds it through FFMPEG_PATH.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg ca-certificates tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/data \
  FFMPEG_PATH=/usr/bin/ffmpeg \
  FFPROBE_PATH=/usr/bin/ffprobe
VOLUME /data
EXPOSE 3000
USER node
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# tini passes SIGTERM on, so a stop drains requests and hands live rooms over (docs/OPERATIONS.md).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
