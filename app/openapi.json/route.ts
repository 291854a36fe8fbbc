import { openApiDocument } from "@/lib/openapi/document";

export const GET = () => Response.json(openApiDocument());
