// The headers every response carries: Next adds them to its own (next.config.mjs, `headers()`), and
// lib/api/http-guard.ts to the answers it gives before Next.

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

export const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: csp },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // For browsers that predate frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
];
