// Content-Security-Policy for every response. Next's pages carry inline bootstrap scripts and the
// UI sets inline styles, hence 'unsafe-inline' (nonces would make every page dynamic); everything
// else, Swagger UI at /docs included, loads from this origin. `next dev` also needs eval.
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === "production" ? "" : " 'unsafe-eval'"}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: csp },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // For browsers that predate frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Next loads every route's code when the server starts, so the first requests answer at full
  // speed. A server that lives seconds and answers a few routes (the tests start about a hundred)
  // spends most of its start on that: PRELOAD_ROUTES=false loads each route when it is first asked.
  experimental: { preloadEntriesOnStart: process.env.PRELOAD_ROUTES !== "false" },
  // These load WebAssembly and data files by path at run time, which bundling would break.
  // oidc-provider names its stored records after its classes, which minification would rename.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "@prisma/client", "pg", "oidc-provider"],
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
