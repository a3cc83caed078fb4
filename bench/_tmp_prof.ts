import { writeFileSync, readFileSync } from 'node:fs';
import { launchChromium } from './support';
const url = 'http://127.0.0.1:8971';
const L = '63b0cd00b000000000f00000';
const screen = process.argv[2] ?? 'replay';
const sel = process.argv[3] ?? '[data-testid="event-line"].active';
const token = readFileSync('/tmp/rv_token', 'utf8').trim();
const browser = await launchChromium();
const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
await ctx.addCookies([
  { name: 'token', value: token, url },
  { name: 'id', value: 'x', url },
]);
const page = await ctx.newPage();
page.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 200)));
await page.goto(`${url}/review_${screen}/${L}`);
await page.waitForSelector(sel, { timeout: 60000 });
await page.goto(`${url}/`);
const cdp = await ctx.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
const t0 = Date.now();
await page.goto(`${url}/review_${screen}/${L}`, { waitUntil: 'commit' });
await page.waitForSelector(sel, { timeout: 60000 });
console.log('done', Date.now() - t0);
if (process.argv[4]) {
  await page.waitForSelector(process.argv[4], { timeout: 60000 });
  console.log('done2', Date.now() - t0);
}
const { profile } = await cdp.send('Profiler.stop');
writeFileSync(`/tmp/rv_prof_${screen}.cpuprofile`, JSON.stringify(profile));
// self time by function
const self = new Map<string, number>();
const dt = profile.timeDeltas!;
const samples = profile.samples!;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
for (let i = 0; i < samples.length; i++) {
  const n = byId.get(samples[i]!)!;
  const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
  self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0) / 1000);
}
console.log(
  [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 30)
    .map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`)
    .join('\n'),
);
await browser.close();
