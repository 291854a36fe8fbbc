// Writes the installed app's icons (public/icon-192.png, public/icon-512.png, for app/manifest.ts)
// from the shapes of app/icon.svg, with node:zlib alone: a PNG is a signature, IHDR, IDAT (zlib'd
// scanlines) and IEND, each chunk with its CRC-32. Run again after changing app/icon.svg.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const BLUE = [0x25, 0x63, 0xeb];
const WHITE = [0xff, 0xff, 0xff];
// app/icon.svg in a 32-unit box: the tile, and the three bars of a board's columns.
const BARS = [
  [6, 7, 5, 18],
  [13.5, 7, 5, 12],
  [21, 7, 5, 7],
];

function inRounded(x, y, [bx, by, bw, bh], r) {
  if (x < bx || y < by || x >= bx + bw || y >= by + bh) return false;
  const cx = Math.min(Math.max(x, bx + r), bx + bw - r);
  const cy = Math.min(Math.max(y, by + r), by + bh - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function pixels(size, maskable) {
  const rows = [];
  // A maskable icon keeps its drawing in the middle 80% (the safe zone) and fills the whole tile.
  const inset = maskable ? 0.1 : 0;
  for (let py = 0; py < size; py++) {
    const row = [0];
    for (let px = 0; px < size; px++) {
      const u = ((px + 0.5) / size) * 32;
      const v = ((py + 0.5) / size) * 32;
      const du = (u - 32 * inset) / (1 - 2 * inset);
      const dv = (v - 32 * inset) / (1 - 2 * inset);
      const tile = maskable || inRounded(u, v, [0, 0, 32, 32], 7);
      const bar = BARS.some((b) => inRounded(du, dv, b, 1.5));
      row.push(...(tile ? (bar ? WHITE : BLUE) : [0, 0, 0]), tile ? 255 : 0);
    }
    rows.push(Buffer.from(row));
  }
  return Buffer.concat(rows);
}

const table = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = table[(c ^ byte) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
function png(size, maskable) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(pixels(size, maskable), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const out = path.resolve(import.meta.dirname, "../public");
for (const [name, size, maskable] of [
  ["icon-192.png", 192, false],
  ["icon-512.png", 512, false],
  ["icon-maskable-512.png", 512, true],
])
  fs.writeFileSync(path.join(out, name), png(size, maskable));
