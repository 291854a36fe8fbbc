// Writes public/favicon.ico from the shapes of app/icon.svg (a blue rounded square with three
// white columns, the board): 16 and 32 px, 32-bit BMP entries, anti-aliased by 8×8 supersampling.
// No image tool is needed, so it runs on a bare machine: `node scripts/make-favicon.mjs`.
import fs from "node:fs";
import path from "node:path";
import { root } from "./lib/build-state.mjs";

// In the SVG's 32-unit square: [x, y, width, height, corner radius, colour].
const SHAPES = [
  [0, 0, 32, 32, 7, [0x25, 0x63, 0xeb]],
  [6, 7, 5, 18, 1.5, [255, 255, 255]],
  [13.5, 7, 5, 12, 1.5, [255, 255, 255]],
  [21, 7, 5, 7, 1.5, [255, 255, 255]],
];
const SAMPLES = 8;

function inside([x, y, w, h, r], px, py) {
  if (px < x || px > x + w || py < y || py > y + h) return false;
  const cx = Math.min(Math.max(px, x + r), x + w - r);
  const cy = Math.min(Math.max(py, y + r), y + h - r);
  return (px - cx) ** 2 + (py - cy) ** 2 <= r * r;
}

/** RGBA rows, top first. */
function render(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const unit = 32 / size;
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const px = (col + (sx + 0.5) / SAMPLES) * unit;
          const py = (row + (sy + 0.5) / SAMPLES) * unit;
          const shape = SHAPES.findLast((s) => inside(s, px, py));
          if (!shape) continue;
          [r, g, b, a] = [r + shape[5][0], g + shape[5][1], b + shape[5][2], a + 1];
        }
      }
      const at = (row * size + col) * 4;
      // Colour averaged over the covered samples, coverage as alpha.
      if (a > 0) pixels.set([Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((255 * a) / SAMPLES ** 2)], at);
    }
  }
  return pixels;
}

/** A BMP entry as ICO holds it: BITMAPINFOHEADER (height doubled), BGRA rows bottom-up, then the AND mask. */
function bmpEntry(size) {
  const rgba = render(size);
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const colours = Buffer.alloc(size * size * 4);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const from = (row * size + col) * 4;
      const to = ((size - 1 - row) * size + col) * 4;
      colours.set([rgba[from + 2], rgba[from + 1], rgba[from], rgba[from + 3]], to);
    }
  }
  const maskRow = Math.ceil(size / 32) * 4; // all zero: alpha decides
  return Buffer.concat([header, colours, Buffer.alloc(maskRow * size)]);
}

const sizes = [32, 16];
const entries = sizes.map(bmpEntry);
const directory = Buffer.alloc(6 + 16 * sizes.length);
directory.writeUInt16LE(1, 2); // type: icon
directory.writeUInt16LE(sizes.length, 4);
let offset = directory.length;
sizes.forEach((size, i) => {
  const at = 6 + 16 * i;
  directory.writeUInt8(size, at);
  directory.writeUInt8(size, at + 1);
  directory.writeUInt16LE(1, at + 4); // planes
  directory.writeUInt16LE(32, at + 6); // bits per pixel
  directory.writeUInt32LE(entries[i].length, at + 8);
  directory.writeUInt32LE(offset, at + 12);
  offset += entries[i].length;
});
const out = path.join(root, "public", "favicon.ico");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, Buffer.concat([directory, ...entries]));
console.log(`wrote ${path.relative(root, out)} (${offset} bytes)`);
