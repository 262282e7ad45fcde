/**
 * Summarizes a V8 CPU profile (`node --cpu-prof`, e.g. from `BENCH_PROFILE=<dir> npm run
 * bench:session`): the functions with the most self time, and self time by package, as shares
 * of the time the process was busy.
 *
 * Usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

// Self time of each node: the time deltas of the samples taken in it.
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
// Idle time is the other servers' turns and the waits between requests: left out of the total.
const idle = new Set(
  profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id),
);
for (const id of idle) selfUs.delete(id);
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** Where a function lives: a package of node_modules, Gatehouse's sources, Node, or V8. */
function packageOf(url: string): string {
  if (url === '') return '(V8 / native)';
  if (url.startsWith('node:')) return 'node';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match?.[1]) return match[1];
  const own = /packages\/([^/]+)\//.exec(url);
  return own?.[1] ? `@gatehouse/${own[1]}` : url;
}

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where =
    url === '' ? '' : ` ${url.replace(/^.*\/(node_modules|packages)\//, '')}:${lineNumber + 1}`;
  const key = `${functionName || '(anonymous)'}${where}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const pkg = packageOf(url);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
}

const pct = (us: number) => `${((100 * us) / total).toFixed(1)} %`;
const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
console.log(`${file}: ${(total / 1e6).toFixed(1)} s busy (idle left out)\n`);
console.log('| self time | function |');
console.log('|---|---|');
for (const [name, us] of sorted(byFunction).slice(0, top))
  console.log(`| ${pct(us)} | \`${name}\` |`);
console.log('\n| self time | package |');
console.log('|---|---|');
for (const [name, us] of sorted(byPackage).slice(0, 15)) console.log(`| ${pct(us)} | ${name} |`);
