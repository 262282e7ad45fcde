// The whole test run (`npm test`): lint (with the type check), build, API check, the unit and
// server suites, the browser suites and the PostgreSQL pass. The steps are independent enough to share the
// machine: each takes one "lane" (about one core), as many lanes run at once as the machine has
// cores (at least two), and a step starts as soon as the steps it needs are done, in the order
// that ends soonest on the steps' recorded times. Each step's output is kept and printed whole when it ends, so logs never interleave.
// The first failure stops the run: the steps still running are stopped and the run exits 1.
//
//   node scripts/test.mjs            everything
//   node scripts/test.mjs --lanes 1  one step at a time, in order
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The vitest projects that need no build: they resolve workspace packages to their sources. */
const UNIT_PROJECTS = [
  'protocol',
  'server',
  'client',
  'widget',
  'widget-preact',
  'testing',
  'demo',
];

const vitest = (...args) => ['npx', 'vitest', 'run', '--maxWorkers=1', ...args];
const projects = (names) => names.flatMap((name) => ['--project', name]);

/**
 * The steps, with what each needs first. The order is the order of a one-lane run; with more
 * lanes, `plan()` chooses it.
 */
const STEPS = [
  { name: 'build', command: ['npm', 'run', 'build'], needs: [] },
  { name: 'chromium', command: ['node', 'scripts/ensure-chromium.mjs'], needs: [] },
  // Lint type-checks too: oxlint's `--type-check` reports the compiler's diagnostics of every file
  // with its workspace's tsconfig, the same ones `npm run typecheck` (tsgo) reports, so that the
  // type information is built once for both.
  { name: 'lint', command: ['npm', 'run', 'lint'], needs: [] },
  { name: 'api', command: ['node', 'scripts/api-report.mjs'], needs: ['build'] },
  { name: 'server', command: vitest(...projects(['server'])), needs: [] },
  // The unit suites wait on timers for about a third of their time (debounces, transitions), so
  // they take two workers: each fills the other's waits.
  {
    name: 'unit',
    command: [
      ...['npx', 'vitest', 'run', '--maxWorkers=2'],
      ...projects(UNIT_PROJECTS.filter((p) => p !== 'server')),
    ],
    needs: [],
  },
  // The browser suites in two halves, so that they can take two lanes when nothing else waits.
  ...[1, 2].map((half) => ({
    name: `browser-${half}`,
    command: vitest(...projects(['e2e']), `--shard=${half}/2`),
    needs: ['build', 'chromium'],
  })),
  { name: 'postgres', command: ['node', 'scripts/test-postgres.mjs', '--maxWorkers=1'], needs: [] },
];

/** Rough time of each step in seconds (bench/RESULTS.md), for choosing what to start first. */
const COST = {
  build: 20,
  chromium: 1,
  lint: 85,
  api: 7,
  server: 190,
  unit: 50,
  'browser-1': 230,
  'browser-2': 250,
  postgres: 100,
};

const lanesArg = process.argv.indexOf('--lanes');
const lanes =
  lanesArg > 0 ? Number(process.argv[lanesArg + 1]) : Math.max(2, availableParallelism());

/**
 * When the last step would end if the steps started in `order`: whenever a lane is free, it takes
 * the first step of the order whose needs have ended, as the run below does.
 */
function simulate(order) {
  const end = new Map();
  const free = Array.from({ length: lanes }, () => 0);
  const left = [...order];
  while (left.length > 0) {
    const lane = free.indexOf(Math.min(...free));
    const now = free[lane];
    const index = left.findIndex((s) => s.needs.every((n) => end.has(n) && end.get(n) <= now));
    if (index < 0) {
      // Nothing is ready yet: this lane waits for the next step to end.
      free[lane] = Math.min(...[...end.values()].filter((t) => t > now));
      continue;
    }
    const [step] = left.splice(index, 1);
    end.set(step.name, now + COST[step.name]);
    free[lane] = end.get(step.name);
  }
  return Math.max(...end.values());
}

function* permutations(items) {
  if (items.length <= 1) {
    yield items;
    return;
  }
  for (const [i, item] of items.entries()) {
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) {
      yield [item, ...rest];
    }
  }
}

/**
 * The order to start the steps in: of every order, the one whose simulated run ends first on
 * the steps' recorded times (a few hundred thousand orders, well under a second), so that the
 * lanes end together rather than one waiting on a long step started last. One lane keeps the
 * order of STEPS.
 */
function plan() {
  if (lanes === 1) return { order: STEPS, ends: STEPS.reduce((t, s) => t + COST[s.name], 0) };
  // Steps of a second or less go first, as they are; the others are ordered.
  const first = STEPS.filter((s) => COST[s.name] <= 1);
  const rest = STEPS.filter((s) => !first.includes(s));
  let best = { order: STEPS, ends: simulate(STEPS) };
  for (const tail of permutations(rest)) {
    const order = [...first, ...tail];
    const ends = simulate(order);
    if (ends < best.ends) best = { order, ends };
  }
  return best;
}

const done = new Set();
/** How long each step took, for the summary. */
const took = new Map();
const running = new Map();
const pending = [...STEPS];
const started = Date.now();
let failed = false;

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

const planned = plan();
console.log(
  `Order (${lanes} lanes, ${planned.ends} s on the recorded times): ` +
    planned.order.map((s) => s.name).join(', '),
);

function ready() {
  return planned.order.find((s) => pending.includes(s) && s.needs.every((n) => done.has(n)));
}

function start(step) {
  pending.splice(pending.indexOf(step), 1);
  const begun = Date.now();
  console.log(`▶ ${step.name} (at ${seconds(begun - started)}): ${step.command.join(' ')}`);
  const child = spawn(step.command[0], step.command.slice(1), {
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  running.set(step.name, child);
  child.on('close', (code, signal) => {
    running.delete(step.name);
    if (failed) return;
    const ok = code === 0;
    took.set(step.name, Date.now() - begun);
    const time = seconds(Date.now() - begun);
    console.log(`\n──── ${step.name}: ${ok ? 'passed' : 'FAILED'} in ${time} ────`);
    process.stdout.write(Buffer.concat(output));
    if (!ok) {
      failed = true;
      console.error(`\n✗ ${step.name} failed (${signal ?? `exit ${code}`}); stopping the run.`);
      for (const other of running.values()) stop(other);
      process.exitCode = 1;
      return;
    }
    done.add(step.name);
    fill();
  });
}

function stop(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

function fill() {
  while (!failed && running.size < lanes) {
    const step = ready();
    if (!step) break;
    start(step);
  }
  if (!failed && running.size === 0 && pending.length === 0) {
    const steps = [...took].map(([name, ms]) => `${name} ${seconds(ms)}`).join(', ');
    console.log(
      `\n✓ every step passed in ${seconds(Date.now() - started)} (${lanes} lanes): ${steps}`,
    );
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    failed = true;
    for (const child of running.values()) stop(child);
    process.exit(1);
  });
}

fill();
