import { z } from "zod";
import { ValidationError, type ValidationEntry } from "@/lib/platform/errors";
import { FLOAT_MESSAGE } from "@/lib/platform/schema-primitives";

// Clients of the original service parse FastAPI/Pydantic v2 validation bodies, so zod's issues are
// translated into Pydantic's `type`, `msg` and `ctx` for the cases a client can actually hit.

export type Source = "body" | "query" | "path";

export function parseWith<T extends z.ZodType>(schema: T, input: unknown, source: Source): z.output<T> {
  const result = schema.safeParse(input, { reportInput: true });
  const entries = result.success ? [] : result.error.issues.map((issue) => toEntry(issue, source, input));
  entries.push(...nulEntries(input, [source]));
  if (entries.length > 0) throw new ValidationError(entries);
  return result.data!;
}

export function toEntry(issue: z.core.$ZodIssue, source: Source, root: unknown): ValidationEntry {
  const loc: (string | number)[] = [source, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
  const input = "input" in issue ? issue.input : valueAt(root, issue.path);
  const fromText = source !== "body" && typeof input === "string";
  const entry = (type: string, msg: string, ctx?: Record<string, unknown>): ValidationEntry =>
    ctx ? { type, loc, msg, input, ctx } : { type, loc, msg, input };

  switch (issue.code) {
    case "invalid_type": {
      if (input === undefined) {
        return { type: "missing", loc, msg: "Field required", input: valueAt(root, issue.path.slice(0, -1)) ?? null };
      }
      switch (issue.expected) {
        case "string":
          return entry("string_type", "Input should be a valid string");
        case "int":
        case "number":
          // zod reports a non-number given to z.int() as expected "number"; numbers in this API are
          // integers unless declared with floatNumber(), whose message marks them.
          if (issue.message === FLOAT_MESSAGE) {
            return fromText
              ? entry("float_parsing", "Input should be a valid number, unable to parse string as a number")
              : entry("float_type", FLOAT_MESSAGE);
          }
          if (fromText) return entry("int_parsing", "Input should be a valid integer, unable to parse string as an integer");
          if (typeof input === "number")
            return entry("int_from_float", "Input should be a valid integer, got a number with a fractional part");
          return entry("int_type", "Input should be a valid integer");
        case "boolean":
          return fromText
            ? entry("bool_parsing", "Input should be a valid boolean, unable to interpret input")
            : entry("bool_type", "Input should be a valid boolean");
        case "array":
          return entry("list_type", "Input should be a valid list");
        case "object":
          return entry("model_attributes_type", "Input should be a valid dictionary or object to extract fields from");
        default:
          return entry(`${issue.expected}_type`, issue.message);
      }
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") {
        return entry("string_too_short", `String should have at least ${min} character${min === 1 ? "" : "s"}`, { min_length: min });
      }
      if (issue.origin === "array" || issue.origin === "set") {
        const actual = Array.isArray(input) ? input.length : undefined;
        return entry("too_short", `List should have at least ${min} item${min === 1 ? "" : "s"} after validation, not ${actual}`, {
          field_type: "List",
          min_length: min,
          actual_length: actual,
        });
      }
      return issue.inclusive
        ? entry("greater_than_equal", `Input should be greater than or equal to ${min}`, { ge: min })
        : entry("greater_than", `Input should be greater than ${min}`, { gt: min });
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") {
        return entry("string_too_long", `String should have at most ${max} character${max === 1 ? "" : "s"}`, { max_length: max });
      }
      if (issue.origin === "array" || issue.origin === "set") {
        const actual = Array.isArray(input) ? input.length : undefined;
        return entry("too_long", `List should have at most ${max} item${max === 1 ? "" : "s"} after validation, not ${actual}`, {
          field_type: "List",
          max_length: max,
          actual_length: actual,
        });
      }
      return issue.inclusive
        ? entry("less_than_equal", `Input should be less than or equal to ${max}`, { le: max })
        : entry("less_than", `Input should be less than ${max}`, { lt: max });
    }
    case "invalid_value": {
      // zod reports an absent enum field as invalid_value, Pydantic as missing.
      if (input === undefined) {
        return { type: "missing", loc, msg: "Field required", input: valueAt(root, issue.path.slice(0, -1)) ?? null };
      }
      const expected = describeChoices(issue.values);
      return entry("enum", `Input should be ${expected}`, { expected });
    }
    case "invalid_format":
      if (issue.format === "regex" && "pattern" in issue) {
        return entry("string_pattern_mismatch", `String should match pattern '${issue.pattern}'`, { pattern: issue.pattern });
      }
      if (issue.format === "url") {
        return entry("url_parsing", "Input should be a valid URL", { error: issue.message });
      }
      return entry("value_error", `Value error, ${issue.message}`, { error: issue.message });
    default:
      return entry("value_error", `Value error, ${issue.message}`, { error: issue.message });
  }
}

/** Deeper bodies are refused before parsing: no request of this API nests more than a few levels. */
export const MAX_JSON_DEPTH = 32;

/**
 * Parses a JSON request body the way FastAPI reports it: malformed JSON is a 422 `json_invalid`.
 * Nesting beyond MAX_JSON_DEPTH is refused the same way before JSON.parse, because every recursive
 * walk of a value (validation, error bodies, JSON.stringify) would otherwise overflow the stack.
 */
export function parseJsonText(text: string): unknown {
  const tooDeep = nestingBeyond(text, MAX_JSON_DEPTH);
  if (tooDeep !== null) {
    throw new ValidationError([
      {
        type: "json_invalid",
        loc: ["body", tooDeep],
        msg: "JSON decode error",
        input: {},
        ctx: { error: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` },
      },
    ]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    throw new ValidationError([
      { type: "json_invalid", loc: ["body", position], msg: "JSON decode error", input: {}, ctx: { error: message } },
    ]);
  }
}

function describeChoices(values: readonly unknown[]): string {
  const quoted = values.map((value) => (typeof value === "string" ? `'${value}'` : String(value)));
  return quoted.length <= 1 ? quoted.join("") : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The offset where `text` opens its (maxDepth + 1)th nested array or object, or null. Strings are skipped. */
function nestingBeyond(text: string, maxDepth: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      // A backslash escapes the next character, which therefore never ends the string.
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      if (++depth > maxDepth) return i;
    } else if (c === "]" || c === "}") depth--;
  }
  return null;
}

// PostgreSQL text and jsonb cannot hold U+0000, so a NUL anywhere in a request's strings (values or
// keys) is a 422 here rather than a 500 from the database.
function nulEntries(value: unknown, loc: (string | number)[]): ValidationEntry[] {
  if (typeof value === "string") {
    return value.includes("\0")
      ? [{ type: "string_nul", loc, msg: "String should not contain NUL (U+0000) characters", input: value }]
      : [];
  }
  if (value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => nulEntries(item, [...loc, index]));
  return Object.entries(value).flatMap(([key, item]) =>
    key.includes("\0")
      ? [{ type: "string_nul", loc: [...loc, key], msg: "Keys should not contain NUL (U+0000) characters", input: key }]
      : nulEntries(item, [...loc, key]),
  );
}
