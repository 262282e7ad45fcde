/**
 * Draws a soak's curve (`npm run bench:soak-plot -- <soak.json> [out.png]`, `soak.png` beside
 * RESULTS.md by default): latency p50 and p99 per window, requests per second against the target
 * rate, and the server's RSS and heap after GC, over the open loop's seconds, the warm-up and the
 * first and last minutes marked, the memory bounds (10 % above the level after the warm-up) drawn.
 * Soaks that recorded them also get the p99 of session requests and of password-hashing ones, and
 * a panel of the server's CPU (of one core), how busy its core was and the machine's steal time.
 * The SVG is drawn here and rasterised by Debian's Chromium through playwright-core.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.js';
import type { SoakRecord } from './soak-record.js';

const [input, output] = process.argv.slice(2);
if (!input) {
  console.error('usage: npm run bench:soak-plot -- <soak.json> [out.png]');
  process.exit(2);
}
const record = JSON.parse(readFileSync(resolve(input), 'utf8')) as SoakRecord;
const out = resolve(output ?? resolve(dirname(fileURLToPath(import.meta.url)), 'soak.png'));

const WIDTH = 1200;
const PANEL = 250;
const LEFT = 80;
const RIGHT = 30;
const TOP = 90;
const GAP = 70;

interface Series {
  name: string;
  color: string;
  points: [number, number][];
  dashed?: boolean;
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Round tick steps (1, 2, 5 × 10ⁿ) covering 0…max in about five steps. */
function ticks(max: number): number[] {
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step);
}

/** One panel: axes with units, grid, marks of the warm-up and the compared minutes, a legend. */
function panel(index: number, title: string, unit: string, series: Series[], bands: string[] = []) {
  const top = TOP + index * (PANEL + GAP);
  const width = WIDTH - LEFT - RIGHT;
  const xMax = Math.max(record.seconds, 1);
  const yMax = Math.max(...series.flatMap((s) => s.points.map(([, y]) => y)), 1e-9) * 1.15;
  const yTicks = ticks(yMax);
  const top2 = yTicks.at(-1)! >= yMax ? yTicks.at(-1)! : yMax;
  const x = (s: number) => LEFT + (s / xMax) * width;
  const y = (v: number) => top + PANEL - (v / top2) * PANEL;
  const parts: string[] = [];
  const compare = record.compareSeconds ?? 60;
  // The warm-up shaded grey; the first and last compared windows shaded blue.
  parts.push(
    `<rect x="${x(0)}" y="${top}" width="${x(record.warmupSeconds) - x(0)}" height="${PANEL}" fill="#eee"/>`,
    `<rect x="${x(record.warmupSeconds)}" y="${top}" width="${x(compare) - x(0)}" height="${PANEL}" fill="#e3eefc"/>`,
    `<rect x="${x(record.seconds - compare)}" y="${top}" width="${x(compare) - x(0)}" height="${PANEL}" fill="#e3eefc"/>`,
  );
  parts.push(...bands);
  for (const t of yTicks) {
    parts.push(
      `<line x1="${LEFT}" x2="${LEFT + width}" y1="${y(t)}" y2="${y(t)}" stroke="#ddd"/>`,
      `<text x="${LEFT - 8}" y="${y(t) + 4}" text-anchor="end">${+t.toPrecision(6)}</text>`,
    );
  }
  for (const t of ticks(xMax)) {
    parts.push(
      `<line x1="${x(t)}" x2="${x(t)}" y1="${top + PANEL}" y2="${top + PANEL + 5}" stroke="#333"/>`,
      `<text x="${x(t)}" y="${top + PANEL + 20}" text-anchor="middle">${t}</text>`,
    );
  }
  parts.push(
    `<rect x="${LEFT}" y="${top}" width="${width}" height="${PANEL}" fill="none" stroke="#333"/>`,
    `<text x="${LEFT}" y="${top - 10}" font-weight="bold">${esc(title)}</text>`,
    `<text transform="translate(22 ${top + PANEL / 2}) rotate(-90)" text-anchor="middle">${esc(unit)}</text>`,
    `<text x="${LEFT + width / 2}" y="${top + PANEL + 40}" text-anchor="middle">seconds of the open loop</text>`,
  );
  // The curves first, then the legend over them on its own white box.
  const dash = (s: Series) => (s.dashed ? ' stroke-dasharray="6 4"' : '');
  for (const s of series) {
    const d = s.points.map(
      ([px, py], j) => `${j ? 'L' : 'M'}${x(px).toFixed(1)},${y(py).toFixed(1)}`,
    );
    parts.push(
      `<path d="${d.join('')}" fill="none" stroke="${s.color}" stroke-width="2"${dash(s)}/>`,
    );
  }
  // Wide enough for the longest name (about 7.5 px a character at 13 px).
  const legendWidth = Math.max(160, 40 + Math.max(...series.map((s) => s.name.length)) * 7.5);
  const legendX = LEFT + width - legendWidth - 10;
  parts.push(
    `<rect x="${legendX}" y="${top + 4}" width="${legendWidth}" height="${series.length * 18 + 8}" fill="#fff" stroke="#ccc"/>`,
  );
  series.forEach((s, i) => {
    const lx = legendX + 10;
    const ly = top + 22 + i * 18;
    parts.push(
      `<line x1="${lx}" x2="${lx + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"${dash(s)}/>`,
      `<text x="${lx + 30}" y="${ly}">${esc(s.name)}</text>`,
    );
  });
  return parts.join('\n');
}

const windows = record.windows;
const at = (w: SoakRecord['windows'][number]) => w.second;
const mb = (bytes: number) => bytes / 2 ** 20;
const memory = record.memory.filter((m) => m.second >= 0);
const base = memory.find((m) => m.second >= record.warmupSeconds);
const memoryTop = TOP + 2 * (PANEL + GAP);
/** The level after the warm-up up to its bound, 10 % above, as a band drawn under the curve. */
const band = (bytes: number, color: string) => {
  const top = Math.max(...memory.map((m) => mb(Math.max(m.rss, m.heapUsed))), 1e-9) * 1.15;
  const scale = ticks(top).at(-1)! >= top ? ticks(top).at(-1)! : top;
  const y = (v: number) => memoryTop + PANEL - (v / scale) * PANEL;
  const [hi, lo] = [y(mb(bytes) * 1.1), y(mb(bytes))];
  return `<rect x="${LEFT}" y="${hi}" width="${WIDTH - LEFT - RIGHT}" height="${lo - hi}" fill="${color}" opacity="0.15"/>`;
};

/** The points of an optional field of the windows, where present. */
const optional = (
  field:
    | 'sessionP99'
    | 'passwordP99'
    | 'serverCpuPercent'
    | 'serverLoopCpuPercent'
    | 'coreBusyPercent'
    | 'stealPercent',
) =>
  windows.flatMap((w): [number, number][] => {
    const value = w[field];
    return typeof value === 'number' ? [[at(w), value]] : [];
  });
const latency: Series[] = [
  { name: 'p99', color: '#d62728', points: windows.map((w): [number, number] => [at(w), w.p99]) },
  { name: 'p50', color: '#1f77b4', points: windows.map((w): [number, number] => [at(w), w.p50]) },
  {
    name: 'p99 password sign-ins',
    color: '#8c564b',
    dashed: true,
    points: optional('passwordP99'),
  },
  { name: 'p99 session requests', color: '#17becf', dashed: true, points: optional('sessionP99') },
].filter((s) => s.points.length > 0);
const cpu: Series[] = [
  { name: 'server', color: '#e377c2', points: optional('serverCpuPercent') },
  { name: 'server main thread', color: '#7f7f7f', points: optional('serverLoopCpuPercent') },
  { name: "server's core busy", color: '#555', dashed: true, points: optional('coreBusyPercent') },
  { name: 'machine steal', color: '#bcbd22', points: optional('stealPercent') },
].filter((s) => s.points.length > 0);

const peak = record.peak ? `peak ${record.peak.requestsPerSecond.toFixed(0)}/s, ` : '';
const verdict = record.checks.every((c) => c.ok) ? 'all checks met' : 'FAILED';
const panels = cpu.length > 0 ? 4 : 3;
const height = TOP + panels * PANEL + (panels - 1) * GAP + 60;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="DejaVu Sans, sans-serif" font-size="13">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${LEFT}" y="26" font-size="18" font-weight="bold">Gatehouse soak — ${esc(record.date.slice(0, 16).replace('T', ' '))} UTC, build ${esc(record.commit)}</text>
<text x="${LEFT}" y="46">${esc(`${record.machine}; ${peak}open loop at ${record.rate.requestsPerSecond.toFixed(0)} requests/s (${record.rate.source}) for ${record.seconds.toFixed(0)} s; ${record.requests} requests, ${record.wrong} wrong, ${record.errors} errors; ${verdict}`)}</text>
${panel(0, 'Latency per window (grey: warm-up; blue: first and last minutes compared)', 'ms', latency)}
${panel(1, 'Throughput per window', 'requests / s', [
  {
    name: 'answered',
    color: '#2ca02c',
    points: windows.map((w) => [at(w), w.requests / w.seconds]),
  },
  {
    name: 'target rate',
    color: '#555',
    dashed: true,
    points: [
      [0, record.rate.requestsPerSecond],
      [record.seconds, record.rate.requestsPerSecond],
    ],
  },
])}
${panel(
  2,
  'Server memory just after a full GC (bands: from the level after the warm-up to 10 % above it)',
  'MB',
  [
    { name: 'RSS', color: '#9467bd', points: memory.map((m) => [m.second, mb(m.rss)]) },
    {
      name: 'heap after GC',
      color: '#ff7f0e',
      points: memory.map((m) => [m.second, mb(m.heapUsed)]),
    },
  ],
  base ? [band(base.rss, '#9467bd'), band(base.heapUsed, '#ff7f0e')] : [],
)}
${cpu.length > 0 ? panel(3, 'CPU per window: the server (of one core), its core busy (any process), steal (of all cores)', '%', cpu) : ''}
</svg>`;

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: WIDTH, height } });
  await page.setContent(`<!doctype html><body style="margin:0">${svg}</body>`);
  await page.locator('svg').screenshot({ path: out });
} finally {
  await browser.close();
}
console.log(`Wrote ${out}`);
