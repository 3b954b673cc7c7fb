// Benchmark (not a test): how long the game page takes to draw its board, from the state
// arriving to the board drawn (`performance.measure` `jiang:board-first`, see web/js).
// `npm run bench` builds and starts the real server like the browser tests do, opens a fresh
// page on a new game of each variant JIANG_BENCH_RUNS times (default 10) and prints the
// median, minimum and maximum per variant; the figures also go to artifacts/bench.json.
// Timings depend on the machine and its load, so they are reported, never asserted.
import fs from 'node:fs';
import path from 'node:path';
import { startServer } from '../lib/server.mjs';
import { launch, newContext, drawTime, artifacts } from '../lib/browser.mjs';

const runs = Number(process.env.JIANG_BENCH_RUNS || 10);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`JIANG_BENCH_RUNS must be a whole number ≥ 1, not ${process.env.JIANG_BENCH_RUNS}`);
const variants = ['xiangqi', 'jieqi', 'shogi', 'minishogi'];

// Every page load makes API requests from one address: no per-client limit for the benchmark.
process.env.JIANG_RATE_LIMIT = '0';
const server = await startServer();
const browser = await launch();
const results = {};
try {
  for (const variant of variants) {
    const res = await fetch(`${server.url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ variant }) });
    if (!res.ok) throw new Error(`creating a ${variant} game: HTTP ${res.status} ${await res.text()}`);
    const { id } = await res.json();
    const times = [];
    for (let i = 0; i < runs; i++) {
      const ctx = await newContext(browser);
      const page = await ctx.newPage();
      await page.goto(`${server.url}/g/${id}`);
      await page.locator('svg.board [data-piece]').first().waitFor();
      const ms = await drawTime(page);
      await ctx.close();
      if (ms === null) throw new Error(`${variant}: the page recorded no jiang:board-first measure`);
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    const median = times.length % 2 ? times[(times.length - 1) / 2] : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
    results[variant] = { runs, median, min: times[0], max: times[times.length - 1] };
    console.log(`board draw ${variant.padEnd(9)} median ${median.toFixed(1)} ms, min ${times[0].toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms (${runs} page loads)`);
  }
  fs.writeFileSync(path.join(artifacts, 'bench.json'), JSON.stringify({ boardDrawMs: results }, null, 2));
} finally {
  await browser.close();
  await server.close();
}
