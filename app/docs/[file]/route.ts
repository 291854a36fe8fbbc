import fs from "node:fs/promises";
import path from "node:path";

// Swagger UI's files, read from node_modules at run time (the server runs from the project root).
// A Map, not an object literal: a lookup of "constructor" must find nothing.
const VENDOR_FILES = new Map([
  ["swagger-ui.css", "text/css; charset=utf-8"],
  ["swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
]);

// validatorUrl null: Swagger UI otherwise sends the document to validator.swagger.io.
const INIT = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: true,
  tryItOutEnabled: false,
});
`;

export async function GET(_request: Request, context: { params: Promise<{ file: string }> }) {
  const { file } = await context.params;
  if (file === "init.js") return asset(INIT, "text/javascript; charset=utf-8");
  const type = VENDOR_FILES.get(file);
  if (!type) return Response.json({ detail: "Not Found" }, { status: 404 });
  const dir = path.join(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "swagger-ui-dist");
  return asset(await fs.readFile(path.join(/*turbopackIgnore: true*/ dir, file)), type);
}

function asset(body: string | Buffer, type: string) {
  return new Response(new Uint8Array(Buffer.from(body)), {
    headers: { "content-type": type, "cache-control": "public, max-age=3600" },
  });
}
