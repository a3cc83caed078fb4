import { describe, expect, it } from 'vitest';
import {
  emptyShipForm,
  fromShipText,
  shipCreateBody,
  shipFormMessages,
  shipFormSchema,
  shipToForm,
  shipUpdateBody,
  type ShipFormValues,
} from './ship-sync.js';
import {
  createShipSchema,
  shipRecordReadOnlyMessage,
  shipSchema,
  updateShipSchema,
  type Ship,
} from './schemas/sync.js';
import { cruiseSchema } from './schemas/cruises.js';
import { eventSchema } from './schemas/events.js';

function problems(form: ShipFormValues, editing = false, storedUrl?: string): Record<string, string> {
  const result = shipFormSchema(editing, storedUrl).safeParse(form);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
}

const ship: Ship = {
  id: 'a1',
  name: 'Falkor (too)',
  url: 'https://ship.example.org',
  enabled: true,
  bandwidth_kbps: 256,
  state: 'following',
  last_contact: '2026-03-03T12:00:00.000Z',
  last_error: null,
  cursor: '42',
  behind_records: 0,
  behind_bytes: 0,
  queued_files: 0,
  queued_bytes: 0,
  records: { cruises: 1, lowerings: 2, events: 3, aux_data: 4, files: 5 },
  refused_changes: 0,
  refusals: [],
};

describe('the ship form', () => {
  it('reports every problem at once, under its field', () => {
    expect(problems({ ...emptyShipForm(), bandwidth_kbps: 'fast' })).toEqual({
      name: 'Required',
      url: 'Required',
      key: 'Required',
      bandwidth_kbps: 'Must be a whole number of kbit/s, 1 or more',
    });
  });

  it('wants an http or https address and a positive whole bandwidth', () => {
    const base = { ...emptyShipForm(), name: 'Ship', key: 'bk_x' };
    expect(problems({ ...base, url: 'ftp://ship' })).toEqual({ url: 'Must be an http:// or https:// address' });
    expect(problems({ ...base, url: 'ship.example.org' })).toEqual({ url: 'Must be an http:// or https:// address' });
    expect(problems({ ...base, url: 'https://admin:demo@ship.example.org' })).toEqual({
      url: 'Must be an http:// or https:// address',
    });
    expect(problems({ ...base, url: 'http://10.0.0.2:8000', bandwidth_kbps: '0' })).toEqual({
      bandwidth_kbps: 'Must be a whole number of kbit/s, 1 or more',
    });
    expect(problems({ ...base, url: 'http://10.0.0.2:8000', bandwidth_kbps: ' 64 ' })).toEqual({});
  });

  it('keeps the stored key when an edit leaves it blank', () => {
    const form = shipToForm(ship);
    expect(form).toEqual({ name: ship.name, url: ship.url, key: '', bandwidth_kbps: '256', enabled: true });
    expect(problems(form, true)).toEqual({});
    expect(shipUpdateBody(form)).toEqual({ name: ship.name, url: ship.url, bandwidth_kbps: 256, enabled: true });
    expect(shipUpdateBody({ ...form, key: ' bk_new ', bandwidth_kbps: '', enabled: false })).toEqual({
      name: ship.name,
      url: ship.url,
      key: 'bk_new',
      bandwidth_kbps: null,
      enabled: false,
    });
  });

  it('asks for the key again when the address moves to another host', () => {
    const form = shipToForm(ship);
    const keyNeeded = { key: shipFormMessages.keyNeeded };
    for (const url of ['https://other.example.org', 'http://ship.example.org', 'https://ship.example.org:8443']) {
      expect(problems({ ...form, url }, true, ship.url), url).toEqual(keyNeeded);
      expect(problems({ ...form, url, key: 'bk_new' }, true, ship.url), url).toEqual({});
    }
    // The same host under another path keeps its key.
    expect(problems({ ...form, url: 'https://ship.example.org/ship' }, true, ship.url)).toEqual({});
  });

  it('sends bodies the server accepts', () => {
    const form = { name: 'S', url: 'https://s.example', key: 'k', bandwidth_kbps: '128', enabled: false };
    expect(createShipSchema.safeParse(shipCreateBody(form)).success).toBe(true);
    expect(createShipSchema.safeParse(shipCreateBody({ ...form, bandwidth_kbps: '' })).success).toBe(true);
    expect(updateShipSchema.safeParse(shipUpdateBody({ ...form, key: '', bandwidth_kbps: '' })).success).toBe(true);
  });

  it('posts trimmed values, leaving out a blank bandwidth cap', () => {
    expect(
      shipCreateBody({ name: ' S ', url: ' https://s.example ', key: ' k ', bandwidth_kbps: '', enabled: true }),
    ).toEqual({ name: 'S', url: 'https://s.example', key: 'k' });
    expect(
      shipCreateBody({ name: 'S', url: 'https://s.example', key: 'k', bandwidth_kbps: '128', enabled: true }),
    ).toEqual({ name: 'S', url: 'https://s.example', key: 'k', bandwidth_kbps: 128 });
  });
});

describe('ship wire objects', () => {
  it('reads a ship list entry and refuses an unknown state', () => {
    expect(shipSchema.parse(ship)).toEqual(ship);
    expect(shipSchema.safeParse({ ...ship, state: 'sinking' }).success).toBe(false);
  });

  it('keeps the origin of copied records, and records without one stay valid', () => {
    const event = {
      id: 'e1',
      event_author: 'pilot',
      ts: '2026-03-03T12:00:00.000Z',
      event_value: 'FISH',
      event_options: [],
      event_free_text: '',
    };
    expect(eventSchema.parse({ ...event, origin: { ship_id: 'a1', ship_name: 'Falkor (too)' } }).origin).toEqual({
      ship_id: 'a1',
      ship_name: 'Falkor (too)',
    });
    expect(eventSchema.parse(event).origin).toBeUndefined();
    expect(cruiseSchema.shape.origin).toBeDefined();
  });

  it('words the origin and the refusal as the shore says them', () => {
    expect(fromShipText({ ship_id: 'a1', ship_name: 'Falkor (too)' })).toBe('From ship Falkor (too)');
    expect(shipRecordReadOnlyMessage('Falkor (too)')).toBe(
      'This record comes from the ship Falkor (too) and is read-only here; change it on the ship.',
    );
  });
});
