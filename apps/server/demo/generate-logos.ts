/**
 * Generates the demo co-brands' logos from `cobrands.json`:
 *
 *   logos/{name}.{ext}            header logo, 240×60, meant to sit on the co-brand's page background
 *   footers/{abbreviation}.{ext}  footer logo, 120×40, meant to sit on the co-brand's footer background
 *
 * Each logo is an SVG (a simple mark plus a wordmark, drawn in the co-brand's theme colours) rendered by
 * headless Chromium through playwright-core. PNGs keep a transparent background; JPEG and GIF have no
 * (useful) transparency, so those are rendered on the background they are meant for. Most logos are PNG;
 * a few are JPEG or GIF on purpose, so the portal's HEAD-based discovery across png/jpg/gif is exercised.
 * GIFs are encoded here (PNG screenshot → decode → 256-colour palette → LZW), as no image tool is needed.
 *
 * Run from the repository root:  npx tsx apps/server/demo/generate-logos.ts
 * Needs Chromium at /usr/bin/chromium (or CHROMIUM_PATH). Only the DejaVu/Liberation fonts are assumed,
 * so wordmarks use Latin letters and generic font families.
 */
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { type Cobrand, cobrandSchema, LOGO_EXTENSIONS } from '../../../packages/domain/src/index.ts';

type Ext = (typeof LOGO_EXTENSIONS)[number];
type Mark =
  | 'rounded'
  | 'diamond'
  | 'circle'
  | 'square'
  | 'flower'
  | 'leaf'
  | 'waves'
  | 'hexagon'
  | 'shield'
  | 'globe'
  | 'lotus'
  | 'mountain';

interface Design {
  /** The wordmark on the header logo. */
  wordmark: string;
  /** A second, smaller line under the wordmark (optional). */
  tagline?: string;
  /** Short text on the footer logo. */
  footerWord: string;
  /** Letters inside the mark (empty for pictorial marks). */
  initials: string;
  mark: Mark;
  font: 'sans' | 'serif' | 'condensed';
  weight: number;
  upper?: boolean;
  header: Ext;
  footer: Ext;
}

const DESIGNS: Record<string, Design> = {
  cardportal: {
    wordmark: 'cardportal',
    footerWord: 'cardportal',
    initials: 'cp',
    mark: 'rounded',
    font: 'sans',
    weight: 700,
    header: 'png',
    footer: 'png',
  },
  'northwind-bank': {
    wordmark: 'Northwind Bank',
    tagline: 'COMMERCIAL CARDS',
    footerWord: 'Northwind',
    initials: 'N',
    mark: 'diamond',
    font: 'serif',
    weight: 700,
    header: 'gif',
    footer: 'png',
  },
  banconorte: {
    wordmark: 'banconorte',
    footerWord: 'banconorte',
    initials: 'bn',
    mark: 'circle',
    font: 'sans',
    weight: 800,
    header: 'png',
    footer: 'gif',
  },
  'rheinland-kredit': {
    wordmark: 'RHEINLAND',
    tagline: 'KREDITBANK AG',
    footerWord: 'RHEINLAND',
    initials: 'R',
    mark: 'square',
    font: 'condensed',
    weight: 700,
    upper: true,
    header: 'png',
    footer: 'png',
  },
  'sakura-trust': {
    wordmark: 'SAKURA TRUST',
    tagline: 'BANK',
    footerWord: 'SAKURA',
    initials: '',
    mark: 'flower',
    font: 'sans',
    weight: 600,
    upper: true,
    header: 'jpg',
    footer: 'png',
  },
  'erable-banque': {
    wordmark: 'Banque Érable',
    footerWord: 'Érable',
    initials: '',
    mark: 'leaf',
    font: 'serif',
    weight: 400,
    header: 'png',
    footer: 'jpg',
  },
  'aurora-financial': {
    wordmark: 'aurora',
    tagline: 'financial',
    footerWord: 'aurora',
    initials: '',
    mark: 'waves',
    font: 'sans',
    weight: 300,
    header: 'png',
    footer: 'png',
  },
  'volga-commerce': {
    wordmark: 'VOLGA',
    tagline: 'COMMERCE BANK',
    footerWord: 'VOLGA',
    initials: 'V',
    mark: 'hexagon',
    font: 'sans',
    weight: 700,
    upper: true,
    header: 'png',
    footer: 'png',
  },
  'harbour-federal': {
    wordmark: 'Harbour Federal',
    tagline: 'Savings',
    footerWord: 'Harbour',
    initials: 'HF',
    mark: 'shield',
    font: 'serif',
    weight: 700,
    header: 'png',
    footer: 'png',
  },
  'meridian-commercial': {
    wordmark: 'Meridian',
    tagline: 'Commercial Bank',
    footerWord: 'Meridian',
    initials: '',
    mark: 'globe',
    font: 'sans',
    weight: 600,
    header: 'png',
    footer: 'png',
  },
  'lotus-pacific': {
    wordmark: 'LOTUS PACIFIC',
    footerWord: 'LOTUS',
    initials: '',
    mark: 'lotus',
    font: 'sans',
    weight: 500,
    upper: true,
    header: 'png',
    footer: 'png',
  },
  'nusantara-bank': {
    wordmark: 'Bank Nusantara',
    footerWord: 'Nusantara',
    initials: '',
    mark: 'mountain',
    font: 'serif',
    weight: 700,
    header: 'png',
    footer: 'png',
  },
};

const FONTS = {
  sans: "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif",
  serif: "'DejaVu Serif', 'Liberation Serif', Georgia, serif",
  condensed: "'DejaVu Sans Condensed', 'Liberation Sans Narrow', 'Arial Narrow', sans-serif",
};

/** WCAG contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r = 0, g = 0, bl = 0] = [1, 3, 5].map((i) => {
      const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The mark, drawn in a `size`×`size` box at (x, y). */
function markSvg(d: Design, x: number, y: number, size: number, fill: string, on: string): string {
  const c = size / 2;
  const g = (inner: string) => `<g transform="translate(${x} ${y})">${inner}</g>`;
  const letters = (fontSize: number) =>
    d.initials
      ? `<text x="${c}" y="${c}" dy="0.35em" text-anchor="middle" font-family="${FONTS[d.font]}" font-weight="700" font-size="${fontSize}" fill="${on}">${esc(d.initials)}</text>`
      : '';
  const fs = size * (d.initials.length > 1 ? 0.42 : 0.55);
  switch (d.mark) {
    case 'rounded':
      return g(`<rect width="${size}" height="${size}" rx="${size * 0.22}" fill="${fill}"/>${letters(fs)}`);
    case 'diamond':
      return g(
        `<polygon points="${c},0 ${size},${c} ${c},${size} 0,${c}" fill="${fill}"/>${letters(fs * 0.8)}`,
      );
    case 'circle':
      return g(
        `<circle cx="${c}" cy="${c}" r="${c}" fill="${fill}"/><rect x="0" y="${size * 0.62}" width="${size}" height="${size * 0.08}" fill="${on}" opacity="0.35"/>${letters(fs)}`,
      );
    case 'square':
      return g(`<rect width="${size}" height="${size}" fill="${fill}"/>${letters(fs)}`);
    case 'hexagon': {
      const p = [0, 1, 2, 3, 4, 5]
        .map((i) => {
          const a = (Math.PI / 3) * i - Math.PI / 2;
          return `${(c + c * Math.cos(a)).toFixed(1)},${(c + c * Math.sin(a)).toFixed(1)}`;
        })
        .join(' ');
      return g(`<polygon points="${p}" fill="${fill}"/>${letters(fs)}`);
    }
    case 'shield':
      return g(
        `<path d="M0 0 H${size} V${size * 0.55} Q${size} ${size * 0.85} ${c} ${size} Q0 ${size * 0.85} 0 ${size * 0.55} Z" fill="${fill}"/>${letters(fs * 0.9)}`,
      );
    case 'flower': {
      const petals = [0, 1, 2, 3, 4]
        .map((i) => {
          const a = ((Math.PI * 2) / 5) * i - Math.PI / 2;
          return `<circle cx="${(c + size * 0.25 * Math.cos(a)).toFixed(1)}" cy="${(c + size * 0.25 * Math.sin(a)).toFixed(1)}" r="${size * 0.22}" fill="${fill}"/>`;
        })
        .join('');
      return g(`${petals}<circle cx="${c}" cy="${c}" r="${size * 0.1}" fill="${on}"/>`);
    }
    case 'leaf':
      return g(
        `<path d="M${c} 0 L${size * 0.62} ${size * 0.28} L${size * 0.9} ${size * 0.18} L${size * 0.8} ${size * 0.5} L${size} ${size * 0.55} L${size * 0.68} ${size * 0.78} L${size * 0.55} ${size * 0.78} L${size * 0.55} ${size} L${size * 0.45} ${size} L${size * 0.45} ${size * 0.78} L${size * 0.32} ${size * 0.78} L0 ${size * 0.55} L${size * 0.2} ${size * 0.5} L${size * 0.1} ${size * 0.18} L${size * 0.38} ${size * 0.28} Z" fill="${fill}"/>`,
      );
    case 'waves':
      return g(
        [0, 1, 2]
          .map(
            (i) =>
              `<path d="M0 ${size * (0.35 + i * 0.22)} Q${size * 0.25} ${size * (0.1 + i * 0.22)} ${c} ${size * (0.35 + i * 0.22)} T${size} ${size * (0.35 + i * 0.22)}" fill="none" stroke="${fill}" stroke-width="${size * 0.1}" stroke-linecap="round" opacity="${1 - i * 0.25}"/>`,
          )
          .join(''),
      );
    case 'globe':
      return g(
        `<circle cx="${c}" cy="${c}" r="${c * 0.92}" fill="none" stroke="${fill}" stroke-width="${size * 0.09}"/><ellipse cx="${c}" cy="${c}" rx="${c * 0.4}" ry="${c * 0.92}" fill="none" stroke="${fill}" stroke-width="${size * 0.07}"/><line x1="${size * 0.05}" y1="${c}" x2="${size * 0.95}" y2="${c}" stroke="${fill}" stroke-width="${size * 0.07}"/>`,
      );
    case 'lotus':
      return g(
        `<ellipse cx="${c}" cy="${size * 0.45}" rx="${size * 0.16}" ry="${size * 0.4}" fill="${fill}"/><ellipse cx="${c}" cy="${size * 0.45}" rx="${size * 0.16}" ry="${size * 0.4}" fill="${fill}" opacity="0.75" transform="rotate(-40 ${c} ${size * 0.85})"/><ellipse cx="${c}" cy="${size * 0.45}" rx="${size * 0.16}" ry="${size * 0.4}" fill="${fill}" opacity="0.75" transform="rotate(40 ${c} ${size * 0.85})"/>`,
      );
    case 'mountain':
      return g(
        `<polygon points="0,${size} ${size * 0.4},${size * 0.15} ${size * 0.62},${size * 0.55} ${size * 0.75},${size * 0.38} ${size},${size}" fill="${fill}"/><circle cx="${size * 0.8}" cy="${size * 0.16}" r="${size * 0.13}" fill="${fill}" opacity="0.6"/>`,
      );
  }
}

function headerSvg(c: Cobrand, d: Design): string {
  const t = c.theme;
  const size = 44;
  const x0 = 8 + size + 10;
  const word = d.upper ? d.wordmark.toUpperCase() : d.wordmark;
  const fontSize = d.tagline ? 22 : 24;
  const textY = d.tagline ? 30 : 38;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="60" viewBox="0 0 240 60">
  ${markSvg(d, 8, 8, size, t.primary, t.onPrimary)}
  <text x="${x0}" y="${textY}" font-family="${FONTS[d.font]}" font-weight="${d.weight}" font-size="${fontSize}" fill="${contrast(t.primary, t.background) >= 3 ? t.primary : t.text}" textLength="${Math.min(240 - x0 - 6, word.length * fontSize * 0.62)}" lengthAdjust="spacingAndGlyphs">${esc(word)}</text>
  ${d.tagline ? `<text x="${x0 + 1}" y="${textY + 18}" font-family="${FONTS[d.font]}" font-size="12" letter-spacing="1.5" fill="${t.text}">${esc(d.tagline)}</text>` : ''}
</svg>`;
}

function footerSvg(c: Cobrand, d: Design): string {
  const t = c.theme;
  const size = 26;
  const x0 = 6 + size + 6;
  const word = d.upper ? d.footerWord.toUpperCase() : d.footerWord;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">
  ${markSvg(d, 6, 7, size, t.footerText, t.footerBackground)}
  <text x="${x0}" y="25" font-family="${FONTS[d.font]}" font-weight="${d.weight}" font-size="13" fill="${t.footerText}" textLength="${Math.min(120 - x0 - 4, word.length * 13 * 0.62)}" lengthAdjust="spacingAndGlyphs">${esc(word)}</text>
</svg>`;
}

/* ---------- PNG decode (8-bit RGB/RGBA, non-interlaced — what Chromium writes) ---------- */

function decodePng(buf: Buffer): { width: number; height: number; rgba: Uint8Array } {
  let pos = 8;
  let width = 0;
  let height = 0;
  let colorType = 0;
  const idat: Buffer[] = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('ascii', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      colorType = data[9] ?? 0;
      if (data[8] !== 8 || data[12] !== 0 || (colorType !== 2 && colorType !== 6)) {
        throw new Error('unsupported PNG format');
      }
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const bpp = colorType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const out = new Uint8Array(width * height * 4);
  const prev = new Uint8Array(stride);
  const cur = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] ?? 0;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i] ?? 0;
      const a = i >= bpp ? (cur[i - bpp] ?? 0) : 0;
      const b = prev[i] ?? 0;
      const c = i >= bpp ? (prev[i - bpp] ?? 0) : 0;
      let v = x;
      if (filter === 1) v = x + a;
      else if (filter === 2) v = x + b;
      else if (filter === 3) v = x + ((a + b) >> 1);
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      cur[i] = v & 0xff;
    }
    for (let px = 0; px < width; px++) {
      const o = (y * width + px) * 4;
      out[o] = cur[px * bpp] ?? 0;
      out[o + 1] = cur[px * bpp + 1] ?? 0;
      out[o + 2] = cur[px * bpp + 2] ?? 0;
      out[o + 3] = bpp === 4 ? (cur[px * bpp + 3] ?? 255) : 255;
    }
    prev.set(cur);
  }
  return { width, height, rgba: out };
}

/* ---------- GIF89a encoder: most-frequent-colours palette + LZW ---------- */

function encodeGif(width: number, height: number, rgba: Uint8Array): Buffer {
  const count = new Map<number, number>();
  const n = width * height;
  const rgb = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = ((rgba[i * 4] ?? 0) << 16) | ((rgba[i * 4 + 1] ?? 0) << 8) | (rgba[i * 4 + 2] ?? 0);
    rgb[i] = v;
    count.set(v, (count.get(v) ?? 0) + 1);
  }
  const palette = [...count.entries()]
    .sort((p, q) => q[1] - p[1])
    .slice(0, 256)
    .map(([v]) => v);
  const index = new Map<number, number>();
  const nearest = (v: number): number => {
    const hit = index.get(v);
    if (hit !== undefined) return hit;
    let best = 0;
    let bestD = Number.POSITIVE_INFINITY;
    palette.forEach((p, i) => {
      const dr = ((p >> 16) & 255) - ((v >> 16) & 255);
      const dg = ((p >> 8) & 255) - ((v >> 8) & 255);
      const db = (p & 255) - (v & 255);
      const d = dr * dr * 3 + dg * dg * 4 + db * db * 2;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    });
    index.set(v, best);
    return best;
  };
  const pixels = new Uint8Array(n);
  for (let i = 0; i < n; i++) pixels[i] = nearest(rgb[i] ?? 0);

  const minCodeSize = 8;
  const lzw = lzwEncode(pixels, minCodeSize);
  const bytes: number[] = [];
  const push16 = (v: number) => bytes.push(v & 255, (v >> 8) & 255);
  bytes.push(...Buffer.from('GIF89a', 'ascii'));
  push16(width);
  push16(height);
  bytes.push(0xf7, 0, 0); // global colour table of 256 entries, 8 bits per channel
  for (let i = 0; i < 256; i++) {
    const p = palette[i] ?? 0;
    bytes.push((p >> 16) & 255, (p >> 8) & 255, p & 255);
  }
  bytes.push(0x2c);
  push16(0);
  push16(0);
  push16(width);
  push16(height);
  bytes.push(0, minCodeSize);
  for (let i = 0; i < lzw.length; i += 255) {
    const block = lzw.subarray(i, i + 255);
    bytes.push(block.length, ...block);
  }
  bytes.push(0, 0x3b);
  return Buffer.from(bytes);
}

function lzwEncode(pixels: Uint8Array, minCodeSize: number): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let accBits = 0;
  const clearCode = 1 << minCodeSize;
  const eoiCode = clearCode + 1;
  let codeSize = minCodeSize + 1;
  let nextCode = eoiCode + 1;
  let table = new Map<number, number>();
  const emit = (code: number) => {
    acc |= code << accBits;
    accBits += codeSize;
    while (accBits >= 8) {
      out.push(acc & 255);
      acc >>>= 8;
      accBits -= 8;
    }
  };
  emit(clearCode);
  let prefix = pixels[0] ?? 0;
  for (let i = 1; i < pixels.length; i++) {
    const k = pixels[i] ?? 0;
    const key = (prefix << 8) | k;
    const found = table.get(key);
    if (found !== undefined) {
      prefix = found;
      continue;
    }
    emit(prefix);
    if (nextCode === 4096) {
      emit(clearCode);
      table = new Map();
      nextCode = eoiCode + 1;
      codeSize = minCodeSize + 1;
    } else {
      if (nextCode >= 1 << codeSize) codeSize++;
      table.set(key, nextCode++);
    }
    prefix = k;
  }
  emit(prefix);
  emit(eoiCode);
  if (accBits > 0) out.push(acc & 255);
  return Uint8Array.from(out);
}

/* ---------- rendering ---------- */

const here = dirname(fileURLToPath(import.meta.url));
const cobrands = cobrandSchema.array().parse(JSON.parse(readFileSync(join(here, 'cobrands.json'), 'utf8')));
const MAX_BYTES = 20 * 1024;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  const render = async (svg: string, width: number, height: number, ext: Ext, background: string) => {
    await page.setViewportSize({ width, height });
    // Transparent page for PNG; JPEG and GIF get the colour they will sit on.
    const bg = ext === 'png' ? 'transparent' : background;
    await page.setContent(
      `<!doctype html><html><head><style>html,body{margin:0;padding:0;background:${bg}}svg{display:block}</style></head><body>${svg}</body></html>`,
    );
    if (ext === 'jpg') return page.screenshot({ type: 'jpeg', quality: 92 });
    const png = await page.screenshot({ type: 'png', omitBackground: ext === 'png' });
    if (ext === 'png') return png;
    const { width: w, height: h, rgba } = decodePng(png);
    return encodeGif(w, h, rgba);
  };
  const write = (dir: string, base: string, ext: Ext, data: Buffer) => {
    mkdirSync(join(here, dir), { recursive: true });
    for (const other of LOGO_EXTENSIONS) {
      const p = join(here, dir, `${base}.${other}`);
      if (other !== ext && existsSync(p)) unlinkSync(p);
    }
    if (data.length > MAX_BYTES) throw new Error(`${dir}/${base}.${ext} is ${data.length} bytes (> 20 KB)`);
    writeFileSync(join(here, dir, `${base}.${ext}`), data);
    console.log(`${dir}/${base}.${ext}`.padEnd(36), `${data.length} bytes`);
  };
  for (const c of cobrands) {
    const d = DESIGNS[c.name];
    if (!d) throw new Error(`no logo design for co-brand ${c.name}`);
    write('logos', c.name, d.header, await render(headerSvg(c, d), 240, 60, d.header, c.theme.background));
    write(
      'footers',
      c.abbreviation,
      d.footer,
      await render(footerSvg(c, d), 120, 40, d.footer, c.theme.footerBackground),
    );
  }
} finally {
  await browser.close();
}
