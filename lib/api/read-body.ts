import { HttpError } from "@/lib/platform/errors";
import { parseJsonText } from "@/lib/api/validation";

/** The body parsed as JSON (undefined when empty), at most `limit` bytes. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const text = await readTextBody(request, limit);
  return text.trim() === "" ? undefined : parseJsonText(text);
}

/** The body as text, at most `maxBytes` (413 beyond), whatever Content-Length claims. */
export async function readTextBody(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(maxBytes: number) {
  return new HttpError(413, `Request body larger than ${maxBytes} bytes`);
}
