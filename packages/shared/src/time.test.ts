import { describe, expect, it } from 'vitest';
import { formatClockDuration } from './duration.js';
import { isDateOnlyInput, parseIsoTimestamp, parseLooseTimestamp, parseUtcInput, toIso } from './time.js';

const base = Date.UTC(2023, 2, 14, 22, 15, 39);

describe('parseIsoTimestamp (what Joi date().iso() accepted)', () => {
  it('accepts 0 to 6 fractional digits, keeping milliseconds', () => {
    expect(parseIsoTimestamp('2023-03-14T22:15:39Z')).toBe(base);
    expect(parseIsoTimestamp('2023-03-14T22:15:39.4Z')).toBe(base + 400);
    expect(parseIsoTimestamp('2023-03-14T22:15:39.47Z')).toBe(base + 470);
    expect(parseIsoTimestamp('2023-03-14T22:15:39.479Z')).toBe(base + 479);
    expect(parseIsoTimestamp('2023-03-14T22:15:39.4790Z')).toBe(base + 479);
    expect(parseIsoTimestamp('2023-03-14T22:15:39.47912Z')).toBe(base + 479);
    expect(parseIsoTimestamp('2023-03-14T22:15:39.479000Z')).toBe(base + 479);
  });

  it('accepts minutes without seconds', () => {
    expect(parseIsoTimestamp('2023-03-14T22:15Z')).toBe(Date.UTC(2023, 2, 14, 22, 15));
  });

  it('applies numeric offsets', () => {
    expect(parseIsoTimestamp('2023-03-15T00:15:39.479+02:00')).toBe(base + 479);
    expect(parseIsoTimestamp('2023-03-14T20:15:39.479-0200')).toBe(base + 479);
    expect(parseIsoTimestamp('2023-03-14T22:15:39+00:00')).toBe(base);
  });

  it('reads a date alone as UTC midnight', () => {
    expect(parseIsoTimestamp('2020-03-01')).toBe(Date.UTC(2020, 2, 1));
  });

  it('reads a date-time without offset as UTC', () => {
    expect(parseIsoTimestamp('2020-03-01T10:00')).toBe(Date.UTC(2020, 2, 1, 10));
  });

  it('rejects junk, impossible dates and epoch numbers', () => {
    for (const junk of [
      '',
      'junk',
      'March 3 2020',
      '1678832139479',
      '2023-02-31',
      '2023-02-29T00:00:00Z',
      '2023-13-01',
      '2023-00-10',
      '2023-03-14T24:00:00Z',
      '2023-03-14T22:60:00Z',
      '2023-03-14T22:15:61Z',
      '2023-03-14T22:15:39.Z',
      '2023-03-14T22:15:39.479ZZ',
      '2023-3-14',
      '14/03/2023',
    ]) {
      expect(parseIsoTimestamp(junk), junk).toBeNull();
    }
  });

  it('accepts a leap day', () => {
    expect(parseIsoTimestamp('2024-02-29T12:00:00Z')).toBe(Date.UTC(2024, 1, 29, 12));
  });

  it('keeps years 0000–0099 exact instead of reading them as 1900–1999', () => {
    for (const text of ['0000-01-01T00:00:00.000Z', '0050-06-15T12:30:00.000Z', '0099-12-31T23:59:59.999Z']) {
      const ms = parseIsoTimestamp(text);
      expect(ms, text).not.toBeNull();
      expect(toIso(ms!), text).toBe(text);
    }
    expect(toIso(parseIsoTimestamp('0050-03-01T10:00:00+02:00')!)).toBe('0050-03-01T08:00:00.000Z');
    expect(toIso(parseUtcInput('0012-05-01', 'end')!)).toBe('0012-05-01T23:59:59.999Z');
    expect(toIso(parseLooseTimestamp('0075-01-01T00:00:00Z')!)).toBe('0075-01-01T00:00:00.000Z');
    expect(parseIsoTimestamp('0001-02-29')).toBeNull();
    expect(toIso(parseIsoTimestamp('0004-02-29')!)).toBe('0004-02-29T00:00:00.000Z');
  });
});

describe('toIso', () => {
  it('always writes milliseconds and Z', () => {
    expect(toIso(base)).toBe('2023-03-14T22:15:39.000Z');
    expect(toIso(base + 479)).toBe('2023-03-14T22:15:39.479Z');
    expect(toIso(parseIsoTimestamp('2023-03-15T00:15:39.479+02:00')!)).toBe('2023-03-14T22:15:39.479Z');
  });
});

describe('parseLooseTimestamp (startTS/stopTS: Joi date())', () => {
  it('accepts epoch milliseconds as number or numeric text, ISO and date text', () => {
    expect(parseLooseTimestamp(base)).toBe(base);
    expect(parseLooseTimestamp(String(base))).toBe(base);
    expect(parseLooseTimestamp('2023-03-14T22:15:39Z')).toBe(base);
    expect(parseLooseTimestamp('March 3 2020 UTC')).toBe(Date.UTC(2020, 2, 3));
  });

  it('rejects what no parser understands', () => {
    expect(parseLooseTimestamp('junk')).toBeNull();
    expect(parseLooseTimestamp(Number.NaN)).toBeNull();
  });
});

describe('formatClockDuration ("d days hh:mm:ss")', () => {
  it.each([
    [0, '0'],
    [45_000, '45'],
    [(5 * 60 + 3) * 1000, '5:03'],
    [(2 * 3600 + 5 * 60 + 3) * 1000, '2:05:03'],
    [(2 * 86_400 + 2 * 3600) * 1000, '2 days 02:00:00'],
    [86_400_000, '1 day 00:00:00'],
    [59_600, '1:00'],
    [-5, '0'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatClockDuration(ms)).toBe(text);
  });
});

describe('parseUtcInput (every typed date/time field)', () => {
  const day = Date.UTC(2023, 2, 14);
  it.each([
    ['2023-03-14', 'start', day],
    ['2023-03-14', 'end', day + 86_400_000 - 1],
    [' 2023-03-14 ', 'end', day + 86_400_000 - 1],
    ['2023-03-14 05:00', 'start', day + 5 * 3600_000],
    ['2023-03-14 05:00', 'end', day + 5 * 3600_000],
    ['2023-03-14 05:00:07', 'start', day + 5 * 3600_000 + 7000],
    ['2023-03-14 05:00:07.250', 'end', day + 5 * 3600_000 + 7250],
    ['2023-03-14T05:00:07Z', 'start', day + 5 * 3600_000 + 7000],
    ['2023-03-14T05:00:07.250Z', 'start', day + 5 * 3600_000 + 7250],
    ['2023-03-14T05:00', 'start', day + 5 * 3600_000],
    ['2023-03-14T07:00:00+02:00', 'start', day + 5 * 3600_000],
    ['2023-03-14T00:00:00-0130', 'start', day + 90 * 60_000],
  ] as const)('%s (%s)', (text, edge, ms) => {
    expect(parseUtcInput(text, edge)).toBe(ms);
  });

  it.each(['', '14/03/2023', '2023-3-14', '2023-02-30', '2023-03-14 25:00', '2023-03-14 05', 'now', '1678770000000'])(
    'refuses %j',
    (text) => {
      expect(parseUtcInput(text)).toBeNull();
      expect(parseUtcInput(text, 'end')).toBeNull();
    },
  );

  it('tells a date alone from a date-time', () => {
    expect(isDateOnlyInput('2023-03-14')).toBe(true);
    expect(isDateOnlyInput('2023-03-14 00:00')).toBe(false);
  });
});
