import net from "node:net";
import { forbidden, HttpError } from "@/lib/platform/errors";
import { publicUrl } from "@/lib/config";

// POST /api/setup creates the first administrator, so a web page open in the operator's browser
// must not be able to send it. Checked before the body is read:
// - Host: a DNS-rebinding page reaches this server under the attacker's own domain name, and the
//   browser sends that name as Host. Only names the server answers to pass: localhost, IP addresses
//   (a rebinding page's Host is never an address), and PUBLIC_URL's host. Anything else is 421.
// - Content-Type application/json: a cross-site page can send text/plain without a preflight, but
//   not JSON (415 otherwise).
// - Origin, when the browser sends one: this site's (Host's, or PUBLIC_URL's), else 403.

export function assertSetupRequest(request: Request): void {
  const host = request.headers.get("host");
  if (!host) throw new HttpError(400, "The Host header is missing");
  const name = hostname(host);
  if (name === null || !answersTo(name)) {
    throw new HttpError(
      421,
      `This server does not answer to the host "${host}" for setup: use localhost or the server's address, or set PUBLIC_URL to the address people use`,
    );
  }
  const type = request.headers.get("content-type") ?? "";
  if (type.split(";")[0].trim().toLowerCase() !== "application/json") {
    throw new HttpError(415, "Send the setup as JSON (Content-Type: application/json)");
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !sameOrigin(origin, host)) {
    throw forbidden(`Cross-site setup refused: the request came from ${origin}, not from this server's own page`);
  }
}

function answersTo(name: string): boolean {
  return name === "localhost" || net.isIP(name) !== 0 || name === publicUrl()?.hostname.toLowerCase();
}

function sameOrigin(origin: string, host: string): boolean {
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return false; // "null" (a sandboxed frame, a file) included
  }
  const own = publicUrl();
  return from.host.toLowerCase() === host.toLowerCase() || (own !== null && from.host === own.host);
}

/** The name part of a Host header, lower case, without brackets or port; null when malformed. */
function hostname(host: string): string | null {
  if (!/^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host)) return null;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  } catch {
    return null;
  }
}
