// Lists source files over 300 lines and React components over 150 lines: `node scripts/size-report.mjs`.
import path from "node:path";
import { MAX_COMPONENT_LINES, MAX_FILE_LINES, sizeReport } from "./lib/file-sizes.mjs";

const { files, components } = sizeReport(path.resolve(import.meta.dirname, ".."));
console.log(`Files over ${MAX_FILE_LINES} lines: ${files.length}`);
for (const { file, lines } of files) console.log(`  ${lines}\t${file}`);
console.log(`Components over ${MAX_COMPONENT_LINES} lines: ${components.length}`);
for (const { file, name, lines } of components) console.log(`  ${lines}\t${file} ${name}`);
