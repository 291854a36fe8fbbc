import { SECURITY_HEADERS } from "./lib/api/security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Next loads every route's code when the server starts, so the first requests answer at full
  // speed. A server that lives seconds and answers a few routes (the tests start about a hundred)
  // spends most of its start on that: PRELOAD_ROUTES=false loads each route when it is first asked.
  // Turbopack keeps a cache of a build under .next/cache for the next build (a rebuild after a small
  // change here: 53 s against 81-89 s). A CI run builds a clean clone once and never reads it, and
  // writing it cost 15-20 % of the build's CPU (docs/testing.md, seventeenth session).
  experimental: {
    preloadEntriesOnStart: process.env.PRELOAD_ROUTES !== "false",
    turbopackFileSystemCacheForBuild: process.env.CI !== "true",
  },
  // The build's type check is `npm run typecheck`, the step of `npm run build` after `next build`
  // (so it sees the route types Next writes under .next/types): TypeScript 7's native compiler,
  // 8 s against 31-49 s for Next's own check with TypeScript 5.9, which stays installed for the
  // tools that need its JavaScript API (typescript-eslint). A type error still fails the build.
  typescript: { ignoreBuildErrors: true },
  // These load WebAssembly and data files by path at run time, which bundling would break.
  // oidc-provider names its stored records after its classes, which minification would rename.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "@prisma/client", "pg", "oidc-provider"],
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
