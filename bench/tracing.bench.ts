/**
 * What recording a case costs (not a test): `npm run bench:tracing`.
 *
 * The fixture site's generated suite at parallelism 2, run with each trace policy in the same process,
 * the order rotating every round so drift hits all alike: `off` (nothing recorded: the baseline),
 * `on-failure` (every case traced, passing ones dropped: the default) and `always` (every trace kept,
 * to weigh them). Reported as tests per minute, the ratio to `off`, and the bytes a kept trace takes.
 * The issue's budget: `on-failure` costs at most 15 % of `off`'s throughput (docs/PERFORMANCE.md).
 * Also the CPU seconds a case takes (this process and its browser, from /proc): on a shared machine
 * they move far less with the load than the wall time does.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { BuiltinPlanner } from '@argus/ai';
import { BrowserPool, explore, runTestCase, TargetPolicy } from '@argus/engine';
import { type TestCase, TestCaseSchema, type TracePolicy } from '@argus/protocol';
import { serveFixtureSite } from '../fixtures/site/serve';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PARALLELISM = 2;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const loadBefore = loadavg()[0];
const site = await serveFixtureSite();
const base = `${site.url}/`;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 4 });
const pages = await explore(pool, base, { maxPages: 10, timeBudgetMs: 20_000 });
const cases: TestCase[] = (await new BuiltinPlanner().generate({ url: base, pages })).map((c) =>
  TestCaseSchema.parse(c),
);

/** CPU seconds (user + system, reaped children included) of this process and every process under it. */
function treeCpuSeconds(): number {
  const stats = new Map<number, string[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      stats.set(Number(name), stat.slice(stat.lastIndexOf(')') + 2).split(' '));
    } catch {
      // gone meanwhile
    }
  }
  const children = new Map<number, number[]>();
  for (const [pid, fields] of stats)
    children.set(Number(fields[1]), [...(children.get(Number(fields[1])) ?? []), pid]);
  let ticks = 0;
  const todo = [process.pid];
  for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
    const f = stats.get(pid);
    // utime, stime, cutime, cstime (fields 14 to 17 of /proc/<pid>/stat), in USER_HZ (100 a second).
    if (f) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    todo.push(...(children.get(pid) ?? []));
  }
  return ticks / 100;
}

interface Round {
  seconds: number;
  cpuSeconds: number;
  failed: number;
  traceBytes: number[];
}

async function runSuite(trace: TracePolicy): Promise<Round> {
  const started = performance.now();
  const cpuBefore = treeCpuSeconds();
  const traceBytes: number[] = [];
  let failed = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLELISM }, async () => {
      while (next < cases.length) {
        const outcome = await runTestCase(pool, cases[next++], {
          baseUrl: base,
          recording: { trace, video: false },
        });
        if (outcome.status === 'failed') failed++;
        if (outcome.recorded?.trace) traceBytes.push(outcome.recorded.trace.length);
      }
    }),
  );
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: treeCpuSeconds() - cpuBefore,
    failed,
    traceBytes,
  };
}

const policies: TracePolicy[] = ['off', 'on-failure', 'always'];
const rounds = Object.fromEntries(policies.map((p) => [p, [] as Round[]])) as Record<TracePolicy, Round[]>;
// One warm-up round, then each policy once per round, the order rotating.
for (let round = -1; round < ROUNDS; round++) {
  for (let k = 0; k < policies.length; k++) {
    const policy = policies[(k + Math.max(0, round)) % policies.length];
    const result = await runSuite(policy);
    if (round >= 0) rounds[policy].push(result);
  }
}
await pool.close();
await site.close();

const perMinute = (p: TracePolicy) => median(rounds[p].map((r) => (cases.length / r.seconds) * 60));
const baseline = perMinute('off');
const cpuPerCase = (p: TracePolicy) => median(rounds[p].map((r) => r.cpuSeconds / cases.length));
const cpu = cpus();
console.log(`\nTracing benchmark (${ROUNDS} rounds, medians; ${new Date().toISOString()})`);
console.log(
  `Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.versions.node}; ` +
    `1-min load average ${loadBefore.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end; ` +
    `${cases.length} generated cases of the fixture site at parallelism ${PARALLELISM}\n`,
);
console.log(
  '| trace policy | tests/min | vs off | CPU s per case | vs off | cases failed | traces kept |\n|---|---|---|---|---|---|---|',
);
for (const policy of policies) {
  const rate = perMinute(policy);
  const failed = rounds[policy].reduce((sum, r) => sum + r.failed, 0);
  const traces = rounds[policy].reduce((sum, r) => sum + r.traceBytes.length, 0);
  const cpuCase = cpuPerCase(policy);
  console.log(
    `| ${policy} | ${rate.toFixed(0)} | ${(rate / baseline).toFixed(2)}× | ${cpuCase.toFixed(2)} | ` +
      `${(cpuCase / cpuPerCase('off')).toFixed(2)}× | ${failed} | ${traces} |`,
  );
}
const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
for (const policy of ['always', 'on-failure'] as const) {
  const sorted = rounds[policy].flatMap((r) => r.traceBytes).sort((a, b) => a - b);
  if (sorted.length === 0) continue;
  console.log(
    `${policy === 'always' ? '\n' : ''}Kept trace per case (${policy}${policy === 'always' ? '' : ': the failed cases'}): ` +
      `median ${kib(median(sorted))}, smallest ${kib(sorted[0])}, largest ${kib(sorted[sorted.length - 1])} ` +
      `over ${sorted.length} traces`,
  );
}
console.log(
  `on-failure costs ${((1 - perMinute('on-failure') / baseline) * 100).toFixed(1)} % of off's throughput`,
);
