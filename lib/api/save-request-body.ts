import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { HttpError } from "@/lib/platform/errors";

/**
 * Streams a request's raw body into a new owner-only file in `dir`, at most `maxBytes` (413 beyond,
 * whatever Content-Length claims, and the partial file is removed); returns the file's path and size.
 * For the one binary upload (a runner's bundle), which may be far larger than a JSON body and is
 * never held in memory whole.
 */
export async function saveRequestBody(request: Request, dir: string, maxBytes: number): Promise<{ file: string; bytes: number }> {
  const declared = Number(request.headers.get("content-length"));
  if (declared > maxBytes) throw tooLarge(maxBytes);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${crypto.randomUUID()}.upload`);
  const out = fs.openSync(file, "wx", 0o600);
  let bytes = 0;
  try {
    const reader = request.body?.getReader();
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      bytes += chunk.value.byteLength;
      if (bytes > maxBytes) {
        await reader!.cancel();
        throw tooLarge(maxBytes);
      }
      fs.writeSync(out, chunk.value);
    }
  } catch (error) {
    fs.closeSync(out);
    fs.rmSync(file, { force: true });
    throw error;
  }
  fs.closeSync(out);
  return { file, bytes };
}

function tooLarge(maxBytes: number) {
  return new HttpError(413, `Request body larger than ${maxBytes} bytes`);
}
