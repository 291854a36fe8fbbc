import { z } from "zod";
import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/platform/errors";
import { parseWith } from "@/lib/api/validation";
import { floatNumber, queryBool, queryInt } from "@/lib/platform/schema-primitives";

const entries = (schema: z.ZodType, input: unknown, source: "body" | "query" | "path" = "body") => {
  try {
    parseWith(schema, input, source);
  } catch (error) {
    return (error as ValidationError).entries;
  }
  throw new Error("expected a validation error");
};

describe("zod issues in FastAPI/Pydantic form", () => {
  it("names query integers as Pydantic does", () => {
    const query = z.object({ limit: queryInt(z.int().min(1).max(100)).default(20) });
    expect(parseWith(query, {}, "query")).toEqual({ limit: 20 });
    expect(parseWith(query, { limit: "7" }, "query")).toEqual({ limit: 7 });
    expect(entries(query, { limit: "abc" }, "query")).toEqual([
      {
        type: "int_parsing",
        loc: ["query", "limit"],
        msg: "Input should be a valid integer, unable to parse string as an integer",
        input: "abc",
      },
    ]);
    expect(entries(query, { limit: "0" }, "query")[0]).toMatchObject({
      type: "greater_than_equal",
      ctx: { ge: 1 },
      msg: "Input should be greater than or equal to 1",
    });
    expect(entries(query, { limit: "101" }, "query")[0]).toMatchObject({ type: "less_than_equal", ctx: { le: 100 } });
  });

  it("names body types, lengths and choices", () => {
    const body = z.object({
      name: z.string().min(1).max(3),
      count: z.int().optional(),
      ratio: floatNumber().optional(),
      flag: z.boolean().optional(),
      options: z.array(z.string()).max(4).optional(),
      kind: z.enum(["a", "b", "c"]).optional(),
    });
    expect(entries(body, { name: 1 })[0]).toMatchObject({ type: "string_type", loc: ["body", "name"] });
    expect(entries(body, { name: "abcd" })[0]).toMatchObject({ type: "string_too_long", ctx: { max_length: 3 } });
    expect(entries(body, { name: "a", count: 1.5 })[0]).toMatchObject({ type: "int_from_float" });
    expect(entries(body, { name: "a", count: "x" })[0]).toMatchObject({ type: "int_type" });
    expect(entries(body, { name: "a", ratio: "x" })[0]).toMatchObject({ type: "float_type" });
    expect(entries(body, { name: "a", flag: "yes" })[0]).toMatchObject({ type: "bool_type" });
    expect(entries(body, { name: "a", options: "x" })[0]).toMatchObject({ type: "list_type" });
    expect(entries(body, { name: "a", options: ["1", "2", "3", "4", "5"] })[0]).toEqual({
      type: "too_long",
      loc: ["body", "options"],
      msg: "List should have at most 4 items after validation, not 5",
      input: ["1", "2", "3", "4", "5"],
      ctx: { field_type: "List", max_length: 4, actual_length: 5 },
    });
    expect(entries(body, { name: "a", kind: "z" })[0]).toEqual({
      type: "enum",
      loc: ["body", "kind"],
      msg: "Input should be 'a', 'b' or 'c'",
      input: "z",
      ctx: { expected: "'a', 'b' or 'c'" },
    });
    expect(entries(body, "text")[0]).toMatchObject({ type: "model_attributes_type", loc: ["body"] });
  });

  it("parses query booleans from their text forms", () => {
    const query = z.object({ keep: queryBool().default(false) });
    expect(parseWith(query, { keep: "true" }, "query")).toEqual({ keep: true });
    expect(parseWith(query, { keep: "0" }, "query")).toEqual({ keep: false });
    expect(entries(query, { keep: "maybe" }, "query")[0]).toMatchObject({ type: "bool_parsing", loc: ["query", "keep"] });
  });
});
