import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_COMPONENT_LINES, MAX_FILE_LINES, componentsOf, sizeReport } from "../../scripts/lib/file-sizes.mjs";

// Files a person can hold in their head (issue #22): no source file over 300 lines, no React component
// over 150. `node scripts/size-report.mjs` prints the same list.

const root = path.resolve(import.meta.dirname, "../..");

// Known exceptions, each to be split by the work that owns it: none left; keep it that way.
const ALLOWED_LONG_FILES: string[] = [];

describe("file sizes", () => {
  const report = sizeReport(root);

  it(`no source file is over ${MAX_FILE_LINES} lines, but the listed exceptions`, () => {
    expect(report.files.map(({ file }) => file).filter((file) => !ALLOWED_LONG_FILES.includes(file))).toEqual([]);
  });

  it("every listed exception is still long (a split file leaves the list)", () => {
    const long = new Set(report.files.map(({ file }) => file));
    expect(ALLOWED_LONG_FILES.filter((file) => !long.has(file))).toEqual([]);
  });

  it(`no React component is over ${MAX_COMPONENT_LINES} lines`, () => {
    expect(report.components).toEqual([]);
  });

  it("a component is measured from its declaration to its closing brace", () => {
    const body = Array.from({ length: 151 }, () => "  <p />").join("\n");
    const source = `export function Small() {\n  return null;\n}\n\nconst Big = ({ a }: Props) => (\n${body}\n);\nconst NOT_A_COMPONENT = 1;\n`;
    expect(componentsOf(source)).toEqual([
      { name: "Small", lines: 3 },
      { name: "Big", lines: 153 },
    ]);
  });
});
