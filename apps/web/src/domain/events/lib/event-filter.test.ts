import { describe, expect, it } from 'vitest';
import { checkEventFilter, emptyEventFilter, eventFilterQuery, filterMessages } from './event-filter';

const bounds = { min: '2023-03-03T00:00:00.000Z', max: '2023-04-11T23:59:59.000Z' };

describe('event filter', () => {
  it('clamps start to the earliest and stop to the latest allowed time, shown as HH:mm:ss', () => {
    const { form, errors } = checkEventFilter(
      { ...emptyEventFilter, start: '2020-01-01 00:00:00', stop: '2030-01-01 12:00:00' },
      bounds,
    );
    expect(errors).toBeNull();
    expect(form.start).toBe('2023-03-03 00:00:00');
    expect(form.stop).toBe('2023-04-11 23:59:59');
  });

  it('says Invalid timestamp for what is not a date-time, and refuses a stop before the start', () => {
    expect(checkEventFilter({ ...emptyEventFilter, start: 'soon' }, bounds).errors).toEqual({
      start: filterMessages.invalidTimestamp,
    });
    expect(
      checkEventFilter({ ...emptyEventFilter, start: '2023-03-10 00:00:00', stop: '2023-03-09 00:00:00' }, bounds)
        .errors,
    ).toEqual({ stop: filterMessages.stopBeforeStart });
  });

  it('takes a date alone as the whole day: start of day for Start, end of day for Stop', () => {
    const { form, errors } = checkEventFilter({ ...emptyEventFilter, start: '2023-03-14', stop: '2023-03-14' }, bounds);
    expect(errors).toBeNull();
    expect(form.start).toBe('2023-03-14 00:00:00');
    expect(form.stop).toBe('2023-03-14 23:59:59.999');
    const query = eventFilterQuery(
      { ...emptyEventFilter, start: '2023-03-14 05:00', stop: '2023-03-14' },
      {
        hideAsnap: false,
      },
    );
    expect(query.startTS).toBe('2023-03-14T05:00:00.000Z');
    expect(query.stopTS).toBe('2023-03-14T23:59:59.999Z');
  });

  it('trims comma lists and hides ASNAP unless values are given', () => {
    const form = { ...emptyEventFilter, fulltext: ' coral , ,sponge', author: 'jo,', start: '2023-03-14 22:00:00' };
    expect(eventFilterQuery(form, { hideAsnap: true })).toEqual({
      fulltext: ['coral', 'sponge'],
      author: ['jo'],
      value: ['!ASNAP'],
      datasource: undefined,
      startTS: '2023-03-14T22:00:00.000Z',
      stopTS: undefined,
    });
    expect(eventFilterQuery({ ...form, value: 'SAMPLE' }, { hideAsnap: true }).value).toEqual(['SAMPLE']);
    expect(eventFilterQuery(form, { hideAsnap: false }).value).toBeUndefined();
  });

  it('keeps a non-admin inside their window when no start is given', () => {
    expect(eventFilterQuery(emptyEventFilter, { hideAsnap: false, min: bounds.min }).startTS).toBe(bounds.min);
  });
});
