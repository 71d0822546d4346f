# The bookworm image carries python3, make and g++, which better-sqlite3 (the embedded store) builds with.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY domain ./domain
COPY projections ./projections
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8000 DATA_DIR=/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8000
# Exec form: node is PID 1 and gets SIGTERM itself (main.ts drains requests and closes the stores).
CMD ["node", "dist/src/main.js"]
