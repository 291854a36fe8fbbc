import { describe, expect, it } from "vitest";
import { z } from "zod";
import { oneNullableForm } from "@/lib/mcp/json-schema";
import { createTaskArgs, moveTaskArgs, startRunArgs, updateTaskArgs } from "@/lib/mcp/schemas";

const published = (schema: z.ZodType) => oneNullableForm(z.toJSONSchema(schema, { target: "draft-7", io: "input" }));

describe("oneNullableForm", () => {
  it("writes a constrained nullable field as a type list, keeping its constraints and description", () => {
    const schema = z.object({ url: z.string().max(20).nullable().describe("a link"), n: z.int().min(1).nullable() });
    expect(published(schema)).toMatchObject({
      properties: {
        url: { type: ["string", "null"], maxLength: 20, description: "a link" },
        n: { type: ["integer", "null"], minimum: 1 },
      },
    });
  });

  it("adds null to a nullable enum", () => {
    expect(published(z.object({ p: z.enum(["a", "b"]).nullable() }))).toMatchObject({
      properties: { p: { type: ["string", "null"], enum: ["a", "b", null] } },
    });
  });

  it("leaves a union that is not nullable alone", () => {
    const schema = published(z.object({ x: z.union([z.string().max(2), z.int().min(3)]) }));
    expect(schema).toMatchObject({ properties: { x: { anyOf: [{ type: "string" }, { type: "integer" }] } } });
  });

  it("leaves no anyOf-with-null in the tools' published arguments", () => {
    for (const args of [createTaskArgs, updateTaskArgs, moveTaskArgs, startRunArgs]) {
      const text = JSON.stringify(published(args));
      expect(text).not.toContain('{"type":"null"}');
    }
  });
});
