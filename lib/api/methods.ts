import { OPERATIONS } from "@/lib/openapi/document";

// Which methods each API path answers, from the operations /openapi.json documents:
// lib/api/http-guard.ts answers any other method with 405 and an Allow header in the API's error format (Next's own
// 405 has an empty body).

interface Route {
  pattern: RegExp;
  methods: string[];
}

let routes: Route[] | undefined;

/**
 * The methods allowed on `pathname` (HEAD with GET, and OPTIONS, which Next answers itself), or
 * null when no documented operation has that path.
 */
export function allowedMethods(pathname: string): string[] | null {
  routes ??= buildRoutes();
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return routes.find((route) => route.pattern.test(path))?.methods ?? null;
}

function buildRoutes(): Route[] {
  const byPath = new Map<string, Set<string>>();
  for (const op of OPERATIONS) {
    const methods = byPath.get(op.path) ?? new Set<string>();
    methods.add(op.method.toUpperCase());
    byPath.set(op.path, methods);
  }
  return [...byPath].map(([template, methods]) => {
    const allowed = [...methods];
    if (methods.has("GET")) allowed.push("HEAD");
    allowed.push("OPTIONS");
    return { pattern: templatePattern(template), methods: allowed };
  });
}

// "{name}" matches one non-empty path segment; literal segments match exactly, so
// /api/workspaces/{id}/board and /api/workspaces/{id}/board/column/{column} never overlap.
function templatePattern(template: string): RegExp {
  const source = template
    .split("/")
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}$`);
}
