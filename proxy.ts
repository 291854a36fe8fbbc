import { NextResponse, type NextRequest } from "next/server";
import { allowedMethods } from "@/lib/api/methods";

// Runs before every route. It answers what no route can: a path whose percent-encoding is malformed
// or hides a NUL (Next fails decoding the first with a 500; PostgreSQL refuses the second in any
// query), and, under /api, a method the path does not document (Next's own 405 has an empty body).
// TRACE never gets this far: see lib/api/http-guard.ts.

const NEXT_AUTH_METHODS = ["GET", "POST", "HEAD", "OPTIONS"];

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const api = pathname === "/api" || pathname.startsWith("/api/");
  if (!decodable(pathname)) {
    return api ? apiError(request, 404, "Not Found") : new NextResponse("Not Found", { status: 404 });
  }
  if (!api) return NextResponse.next();
  // next-auth's browser endpoints (app/api/auth/[...nextauth]) are not part of the documented API.
  const allowed = allowedMethods(pathname) ?? (pathname.startsWith("/api/auth/") ? NEXT_AUTH_METHODS : null);
  if (allowed === null) {
    // app/api/[...path] answers unknown paths for the usual methods; no route takes any other.
    const routed = STANDARD_METHODS.has(request.method) && pathname !== "/api";
    return routed ? NextResponse.next() : apiError(request, 404, "Not Found");
  }
  if (!allowed.includes(request.method)) {
    return apiError(request, 405, "Method Not Allowed", { allow: allowed.join(", ") });
  }
  return NextResponse.next();
}

export const config = {
  // Static build output never reaches a route, and is hashed, so nothing to guard there. Nor does
  // GitHub's webhook: for any request with a body that the proxy runs on, Next first takes in the
  // whole body (up to 10 MB, silently cut beyond), so the route could neither refuse an unsigned
  // delivery before its body nor stream it (app/api/webhooks/github; lib/api/http-guard.ts
  // answers its other methods). Keep in step with UNPROXIED there.
  matcher: "/((?!_next/static|_next/image|api/webhooks/github$).*)",
};

const STANDARD_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function decodable(pathname: string): boolean {
  try {
    return !decodeURIComponent(pathname).includes("\0");
  } catch {
    return false;
  }
}

// Like every API response (lib/api/handler.ts), these carry an x-request-id.
function apiError(request: NextRequest, status: number, detail: string, headers: Record<string, string> = {}) {
  const requestId = request.headers.get("x-request-id") || crypto.randomUUID();
  return NextResponse.json({ detail }, { status, headers: { ...headers, "x-request-id": requestId } });
}
