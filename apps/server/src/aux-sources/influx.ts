import { z } from 'zod';
import type { AuxSource, Reading, ReadingRequest, ReadingResult, SourceHealth } from './source.js';

/**
 * InfluxDB 1.x over HTTP with InfluxQL (docs/aux-managers.md#influxdb): for an event at time T, each field's
 * last value in `(T - maxAge, T]`, per measurement, as Sealog's influx aux-data manager reads them. One HTTP
 * request per event carries one statement per (measurement, field), so each value keeps its own time.
 */
export const influxSourceSchema = z.strictObject({
  /** `http(s)://host:port`; credentials in the URL are moved to a Basic header and never logged. */
  url: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL'),
  database: z.string().min(1),
  retention_policy: z.string().min(1).optional(),
  username: z.string().optional(),
  password: z.string().optional(),
});
export type InfluxSourceConfig = z.infer<typeof influxSourceSchema>;

/** What the manager's lookup rules add: Sealog's `query_measurements` and `query_filters`. */
export interface InfluxQuery {
  measurements: readonly string[];
  filters?: readonly string[];
}

/** How far back a miss looks to tell "stale" (older data exists) from "no data". */
const staleProbeMs = 24 * 3600_000;
/** The longest span of event times one batched read covers (a backfill reads raw points over it). */
const batchSpanMs = 10 * 60_000;

/** An InfluxQL identifier, quoted. */
function ident(name: string): string {
  return `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

interface Endpoint {
  base: string;
  /** The URL as operators may see it: no credentials. */
  shown: string;
  auth: string | null;
}

function endpoint(config: InfluxSourceConfig): Endpoint {
  const url = new URL(config.url);
  const user = config.username ?? decodeURIComponent(url.username);
  const pass = config.password ?? decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  const base = url.toString().replace(/\/$/, '');
  return {
    base,
    shown: base,
    auth: user || pass ? `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` : null,
  };
}

interface SeriesResult {
  statement_id: number;
  series?: Array<{ name: string; columns: string[]; values: Array<Array<number | string | boolean | null>> }>;
  error?: string;
}

/** A failure an operator can act on; its message never holds the URL's credentials. */
export class InfluxError extends Error {}

export class InfluxSource implements AuxSource {
  readonly historical = true;
  private readonly endpoint: Endpoint;
  private state: SourceHealth = { connected: false };

  constructor(
    private readonly config: InfluxSourceConfig,
    private readonly query: InfluxQuery,
  ) {
    this.endpoint = endpoint(config);
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}

  health(): SourceHealth {
    return { ...this.state };
  }

  /** (measurement, field) pairs the keys ask for: `field` in every measurement, `measurement.field` in one. */
  private pairs(keys: readonly string[]): Array<{ measurement: string; field: string }> {
    const out: Array<{ measurement: string; field: string }> = [];
    for (const key of keys) {
      const dot = key.indexOf('.');
      const named = dot > 0 ? key.slice(0, dot) : null;
      if (named !== null && this.query.measurements.includes(named))
        out.push({ measurement: named, field: key.slice(dot + 1) });
      else for (const measurement of this.query.measurements) out.push({ measurement, field: key });
    }
    return out;
  }

  private from(measurement: string): string {
    // "db".."m" reads the database's default retention policy.
    const rp = this.config.retention_policy ? ident(this.config.retention_policy) : '';
    return `${ident(this.config.database)}.${rp}.${ident(measurement)}`;
  }

  private statements(pairs: Array<{ measurement: string; field: string }>, loMs: number, hiMs: number): string {
    const filters = (this.query.filters ?? []).map((f) => `(${f}) AND `).join('');
    return pairs
      .map(
        ({ measurement, field }) =>
          `SELECT last(${ident(field)}) FROM ${this.from(measurement)} WHERE ${filters}time > ${loMs}ms AND time <= ${hiMs}ms`,
      )
      .join('; ');
  }

  /** Runs InfluxQL statements; throws InfluxError (or the abort) with a message fit for operators. */
  async run(q: string, signal: AbortSignal): Promise<SeriesResult[]> {
    const body = new URLSearchParams({ db: this.config.database, q, epoch: 'ms' });
    let res: Response;
    try {
      res = await fetch(`${this.endpoint.base}/query`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(this.endpoint.auth ? { authorization: this.endpoint.auth } : {}),
        },
        body,
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw new InfluxError(`InfluxDB at ${this.endpoint.shown} did not answer in time`);
      const code = (err as { cause?: { code?: string } }).cause?.code;
      throw new InfluxError(`InfluxDB at ${this.endpoint.shown} unreachable${code ? ` (${code})` : ''}`);
    }
    let json: { results?: SeriesResult[]; error?: string };
    try {
      json = (await res.json()) as typeof json;
    } catch {
      if (signal.aborted) throw new InfluxError(`InfluxDB at ${this.endpoint.shown} did not answer in time`);
      throw new InfluxError(`InfluxDB at ${this.endpoint.shown} answered ${res.status} without JSON`);
    }
    if (!res.ok || json.error) {
      const what = res.status === 401 ? 'refused the credentials' : `answered ${res.status}`;
      throw new InfluxError(
        `InfluxDB at ${this.endpoint.shown} ${what}${json.error ? `: ${json.error.slice(0, 200)}` : ''}`,
      );
    }
    const failed = json.results?.find((r) => r.error);
    if (failed?.error && !/database not found/.test(failed.error))
      throw new InfluxError(`InfluxDB query failed: ${failed.error.slice(0, 200)}`);
    return json.results ?? [];
  }

  /**
   * Readings for many event times at once (backfill): per span of at most ten minutes of event times, one
   * request reads each (measurement, field)'s raw points over the span (and the newest before it, to tell
   * stale from no data); each time then takes the last point at or before it within the maximum age. The same
   * answers as `readingAt` one by one, with one request instead of hundreds.
   */
  async readingsAt(
    times: readonly number[],
    request: Omit<ReadingRequest, 'at' | 'eventId'>,
  ): Promise<ReadingResult[]> {
    const pairs = this.pairs(request.keys);
    const out: ReadingResult[] = new Array(times.length);
    if (pairs.length === 0) return out.fill({ kind: 'no_data' });
    const order = times.map((at, i) => ({ at, i })).sort((a, b) => a.at - b.at);
    const filters = (this.query.filters ?? []).map((f) => `(${f}) AND `).join('');
    try {
      for (let start = 0; start < order.length;) {
        let end = start;
        while (end + 1 < order.length && order[end + 1]!.at - order[start]!.at <= batchSpanMs) end++;
        const lo = order[start]!.at - request.maxAgeMs;
        const hi = order[end]!.at;
        const statements = pairs.flatMap(({ measurement, field }) => [
          `SELECT ${ident(field)} FROM ${this.from(measurement)} WHERE ${filters}time > ${lo}ms AND time <= ${hi}ms`,
          `SELECT last(${ident(field)}) FROM ${this.from(measurement)} WHERE ${filters}time > ${lo - staleProbeMs}ms AND time <= ${lo}ms`,
        ]);
        const results = await this.run(statements.join('; '), request.signal);
        const series = pairs.map((_, p) => {
          const rows = (results[2 * p]?.series?.[0]?.values ?? []) as Array<[number, Reading['values'][string]]>;
          const before = results[2 * p + 1]?.series?.[0]?.values?.[0]?.[0];
          return {
            ts: rows.map((r) => Number(r[0])),
            values: rows.map((r) => r[1]),
            before: before === undefined ? null : Number(before),
          };
        });
        for (let k = start; k <= end; k++) {
          const { at, i } = order[k]!;
          const values: Reading['values'] = {};
          let oldest = Number.POSITIVE_INFINITY;
          let older = Number.NEGATIVE_INFINITY;
          pairs.forEach(({ measurement, field }, p) => {
            const s = series[p]!;
            // The last point at or before `at` (points come oldest first).
            let a = 0;
            let b = s.ts.length;
            while (a < b) {
              const m = (a + b) >> 1;
              if (s.ts[m]! <= at) a = m + 1;
              else b = m;
            }
            const j = a - 1;
            if (j >= 0 && s.ts[j]! > at - request.maxAgeMs) {
              values[`${measurement}.${field}`] = s.values[j]!;
              if (!(field in values)) values[field] = s.values[j]!;
              oldest = Math.min(oldest, s.ts[j]!);
            } else if (j >= 0) older = Math.max(older, s.ts[j]!);
            else if (s.before !== null) older = Math.max(older, s.before);
          });
          out[i] = Number.isFinite(oldest)
            ? { kind: 'reading', reading: { ts: oldest, values }, provenance: 'realtime' }
            : Number.isFinite(older)
              ? { kind: 'stale', newestTs: older }
              : { kind: 'no_data' };
        }
        start = end + 1;
      }
      this.state = { ...this.state, connected: true, lastSuccessAt: Date.now() };
      return out;
    } catch (err) {
      const message = err instanceof InfluxError ? err.message : 'InfluxDB request failed';
      this.state = { ...this.state, connected: false, lastError: message, lastErrorAt: Date.now() };
      throw new InfluxError(message);
    }
  }

  async readingAt(request: ReadingRequest): Promise<ReadingResult> {
    const pairs = this.pairs(request.keys);
    if (pairs.length === 0) return { kind: 'no_data' };
    try {
      const results = await this.run(this.statements(pairs, request.at - request.maxAgeMs, request.at), request.signal);
      const values: Reading['values'] = {};
      let oldest = Number.POSITIVE_INFINITY;
      pairs.forEach(({ measurement, field }, i) => {
        const row = results[i]?.series?.[0]?.values?.[0];
        if (!row) return;
        const [ts, value] = row as [number, number | string | boolean | null];
        values[`${measurement}.${field}`] = value;
        if (!(field in values)) values[field] = value;
        oldest = Math.min(oldest, Number(ts));
      });
      const now = Date.now();
      this.state = { ...this.state, connected: true, lastSuccessAt: now };
      if (Number.isFinite(oldest)) {
        this.state.lastReadingTs = Math.max(this.state.lastReadingTs ?? 0, oldest);
        return { kind: 'reading', reading: { ts: oldest, values }, provenance: 'realtime' };
      }
      // Nothing in the window: older data means the source fell behind (stale), none means no data.
      const probe = await this.run(this.statements(pairs, request.at - staleProbeMs, request.at), request.signal);
      const newest = Math.max(
        ...probe.map((r) => Number(r.series?.[0]?.values?.[0]?.[0] ?? Number.NEGATIVE_INFINITY)),
        Number.NEGATIVE_INFINITY,
      );
      return Number.isFinite(newest) ? { kind: 'stale', newestTs: newest } : { kind: 'no_data' };
    } catch (err) {
      const message = err instanceof InfluxError ? err.message : 'InfluxDB request failed';
      this.state = { ...this.state, connected: false, lastError: message, lastErrorAt: Date.now() };
      throw new InfluxError(message);
    }
  }
}
