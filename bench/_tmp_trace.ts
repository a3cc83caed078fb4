import { readFileSync } from 'node:fs';
import { launchChromium } from './support';
const url = 'http://127.0.0.1:8971';
const L = '63b0cd00b000000000f00000';
const screen = process.argv[2] ?? 'replay';
const sel = process.argv[3] ?? '[data-testid="event-line"].active';
const token = readFileSync('/tmp/rv_token', 'utf8').trim();
const browser = await launchChromium();
const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
await ctx.addCookies([{ name: 'token', value: token, url }]);
const page = await ctx.newPage();
await page.goto(`${url}/review_${screen}/${L}`);
await page.waitForSelector(sel, { timeout: 60000 });
await page.goto(`${url}/`);
await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'blink'] });
const t0 = Date.now();
await page.goto(`${url}/review_${screen}/${L}`, { waitUntil: 'commit' });
await page.waitForSelector(sel, { timeout: 60000 });
console.log('done', Date.now() - t0);
const buf = await browser.stopTracing();
const trace = JSON.parse(buf.toString()) as {
  traceEvents: Array<{ name: string; ph: string; dur?: number; ts: number; tid: number; pid: number; args?: any }>;
};
const evs = trace.traceEvents;
// main thread = thread with most RunTask durations in renderer
const tot = new Map<string, number>();
for (const e of evs)
  if (e.ph === 'X' && e.name === 'FunctionCall')
    tot.set(`${e.pid}:${e.tid}`, (tot.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
const main = [...tot].sort((a, b) => b[1] - a[1])[0]![0];
const by = new Map<string, number>();
const tasks: Array<[number, number]> = [];
const t00 = Math.min(...evs.filter((e) => e.ts > 0).map((e) => e.ts));
for (const e of evs) {
  if (`${e.pid}:${e.tid}` !== main || e.ph !== 'X') continue;
  by.set(e.name, (by.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  if (e.name === 'FunctionCall' && (e.dur ?? 0) > 30000)
    tasks.push([Math.round((e.ts - t00) / 1000), Math.round(e.dur! / 1000)]);
}
console.log(
  [...by]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`)
    .join('\n'),
);
console.log('tasks', JSON.stringify(tasks));
// details for functions called in long tasks
for (const e of evs)
  if (`${e.pid}:${e.tid}` === main && e.ph === 'X' && (e.dur ?? 0) > 40000 && !e.name.includes('RunTask'))
    console.log(
      Math.round((e.ts - t00) / 1000),
      Math.round(e.dur! / 1000),
      e.name,
      JSON.stringify(e.args?.data ?? {}).slice(0, 150),
    );
await browser.close();
