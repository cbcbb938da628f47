#!/usr/bin/env node
// Draws the extension's 128×128 icon, a rounded blue square with a white "k" built from a bar and
// two strokes, and writes it as a PNG with Node's zlib alone, so the icon has a source in the
// repository that needs no image editor to change.
// Usage: node client/scripts/icon.mjs [--out <file>]   (default: client/icon.png)
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
/** Samples per pixel along each axis; their average gives the edges their anti-aliasing. */
const SS = 4;

/** Distance from (px, py) to the segment (ax, ay)–(bx, by). */
function segmentDistance(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function insideRoundedSquare(x, y, margin, radius) {
  const lo = margin + radius;
  const hi = SIZE - margin - radius;
  const cx = Math.max(lo, Math.min(hi, x));
  const cy = Math.max(lo, Math.min(hi, y));
  return Math.hypot(x - cx, y - cy) <= radius;
}

const TOP = 26;
const BOTTOM = 102;
const STEM = { left: 36, right: 53 };

function insideLetter(x, y) {
  if (y < TOP || y > BOTTOM) return false;
  if (x >= STEM.left && x <= STEM.right) return true;
  if (x < STEM.right - 2) return false;
  // The arm rises from the middle of the stem; the leg leaves the arm and falls to the baseline.
  const arm = segmentDistance(x, y, STEM.right - 4, 78, 90, 44) <= 8.5 && y >= 40;
  const leg = segmentDistance(x, y, 64, 66, 92, 102) <= 8.5;
  return arm || leg;
}

/** Colour of the background at row y: a vertical gradient. */
function background(y) {
  const t = y / SIZE;
  const top = [58, 123, 235];
  const bottom = [28, 64, 160];
  return top.map((c, i) => c + (bottom[i] - c) * t);
}

/** RGBA pixels, row by row. */
export function drawIcon() {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      let square = 0;
      let letter = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const px = x + (sx + 0.5) / SS;
          const py = y + (sy + 0.5) / SS;
          if (insideRoundedSquare(px, py, 4, 24)) {
            square++;
            if (insideLetter(px, py)) letter++;
          }
        }
      }
      const n = SS * SS;
      const bg = background(y);
      const cover = letter / Math.max(1, square);
      const o = (y * SIZE + x) * 4;
      for (let i = 0; i < 3; i++) pixels[o + i] = Math.round(bg[i] + (255 - bg[i]) * cover);
      pixels[o + 3] = Math.round((255 * square) / n);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG (8-bit RGBA, no interlace) of `pixels`, `width` × `height`. */
export function encodePng(pixels, width, height) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  // Each row starts with its filter type; 0 (none) keeps the encoder trivial, and deflate still
  // shrinks the flat areas well.
  const raw = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) pixels.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function iconPng() {
  return encodePng(drawIcon(), SIZE, SIZE);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--out');
  const clientDir = join(dirname(fileURLToPath(import.meta.url)), '..');
  const out = resolve(i > 0 && process.argv[i + 1] ? process.argv[i + 1] : join(clientDir, 'icon.png'));
  writeFileSync(out, iconPng());
  console.log(`wrote ${out}`);
}
