import { z } from "zod";

// The JSON Schemas the MCP server publishes for its tools. Zod writes a nullable field in two forms:
// `type: ["string", "null"]` when the inner type is bare, `anyOf: [{…constraints}, {type: "null"}]`
// when it carries a constraint (maxLength, format, minimum). A client's form generator then needs
// both cases for one idea; this rewrites every nullable field to the first form. Constraints stay
// valid there: a keyword such as maxLength applies only to values of its own type, and null is
// added to an `enum`.

type Schema = { [key: string]: unknown };

export function oneNullableForm(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(oneNullableForm);
  if (!schema || typeof schema !== "object") return schema;
  const walked: Schema = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, oneNullableForm(value)]));
  const branches = walked.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return walked;
  const nullAt = branches.findIndex((branch) => isNull(branch));
  const inner = branches[1 - nullAt] as Schema | undefined;
  if (nullAt === -1 || !inner || typeof inner.type !== "string") return walked;
  const outer = { ...walked };
  delete outer.anyOf;
  const merged: Schema = { ...inner, ...outer, type: [inner.type, "null"] };
  if (Array.isArray(inner.enum)) merged.enum = [...inner.enum, null];
  return merged;
}

function isNull(branch: unknown): boolean {
  return !!branch && typeof branch === "object" && Object.keys(branch).length === 1 && (branch as Schema).type === "null";
}

type Published = { type: "object"; [key: string]: unknown };

// A server is made per request (it is stateless), so each schema is converted once per process.
const converted = { input: new WeakMap<z.ZodObject, Published>(), output: new WeakMap<z.ZodObject, Published>() };

/** A tool's arguments (`input`) or result (`output`) as the server publishes it. */
export function publishedSchema(schema: z.ZodObject, io: "input" | "output"): Published {
  let json = converted[io].get(schema);
  if (!json) {
    json = oneNullableForm(z.toJSONSchema(schema, { target: "draft-7", io })) as Published;
    converted[io].set(schema, json);
  }
  return json;
}
