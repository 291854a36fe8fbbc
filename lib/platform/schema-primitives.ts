import { z } from "zod";

// Reusable zod building blocks for the domains' schemas. The translation of their failures into
// FastAPI's 422 bodies stays with the HTTP layer (lib/api/validation.ts); FLOAT_MESSAGE is how it
// tells a float field from an integer one.

export const FLOAT_MESSAGE = "Input should be a valid number";

/** The largest value of a PostgreSQL `integer` column (and of an integer query value used in SQL). */
export const INT32_MAX = 2_147_483_647;

/** A JSON number that may have a fractional part (everything else numeric here is an integer). */
export function floatNumber() {
  return z.number({ error: FLOAT_MESSAGE });
}

// Query strings and path segments are text; these accept the text forms FastAPI accepts and leave
// anything else as text, so the error names the right Pydantic type (int_parsing, bool_parsing).
export function queryInt<T extends z.ZodType = z.ZodInt>(inner: T = z.int() as unknown as T) {
  return z.preprocess((value) => (typeof value === "string" && /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : value), inner);
}

export function queryBool<T extends z.ZodType = z.ZodBoolean>(inner: T = z.boolean() as unknown as T) {
  return z.preprocess((value) => {
    if (typeof value !== "string") return value;
    const text = value.trim().toLowerCase();
    if (["true", "1", "yes", "on", "t", "y"].includes(text)) return true;
    if (["false", "0", "no", "off", "f", "n"].includes(text)) return false;
    return value;
  }, inner);
}
