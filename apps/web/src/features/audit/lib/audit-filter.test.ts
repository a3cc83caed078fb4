import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@bathylog/shared';
import {
  auditCsvFileName,
  auditFilterError,
  auditQuery,
  changedFields,
  emptyAuditFilter,
  isRestorable,
  recordName,
} from './audit-filter';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  seq: 1,
  at: '2026-11-23T10:00:00.000Z',
  actor_kind: 'user',
  actor_id: null,
  actor_name: 'admin',
  route: null,
  action: 'update',
  record_type: 'event',
  record_id: '5981f167212b348aed7fa9f5',
  old_value: null,
  new_value: null,
  ...over,
});

describe('audit filter', () => {
  it('sends only what is filled, times in UTC (a date alone spans its whole day)', () => {
    expect(auditQuery(emptyAuditFilter)).toEqual({
      actor: undefined,
      record_type: undefined,
      record_id: undefined,
      startTS: undefined,
      stopTS: undefined,
    });
    expect(
      auditQuery({
        actor: ' pi ',
        recordType: 'cruise',
        recordId: '5981F167212B348AED7FA9F5',
        start: '2026-11-23 10:00',
        stop: '2026-11-23T11:30:15.5Z',
      }),
    ).toEqual({
      actor: 'pi',
      record_type: 'cruise',
      record_id: '5981f167212b348aed7fa9f5',
      startTS: '2026-11-23T10:00:00.000Z',
      stopTS: '2026-11-23T11:30:15.500Z',
    });
  });

  it('refuses a malformed record id and a reversed time range', () => {
    expect(auditFilterError(emptyAuditFilter)).toBeNull();
    expect(auditFilterError({ ...emptyAuditFilter, recordId: 'abc' })).toBe('Record ID must be a 24-character hex id');
    expect(auditFilterError({ ...emptyAuditFilter, start: '2026-11-23T11:00', stop: '2026-11-23T10:00' })).toBe(
      'From must be before To',
    );
    expect(auditFilterError({ ...emptyAuditFilter, start: '2026-11-23', stop: '2026-11-23' })).toBeNull();
    expect(auditQuery({ ...emptyAuditFilter, start: '2026-11-23', stop: '2026-11-23' })).toMatchObject({
      startTS: '2026-11-23T00:00:00.000Z',
      stopTS: '2026-11-23T23:59:59.999Z',
    });
    expect(auditFilterError({ ...emptyAuditFilter, start: '23/11/2026' })).toBe('From (UTC): Invalid timestamp');
    expect(auditFilterError({ ...emptyAuditFilter, stop: 'tomorrow' })).toBe('To (UTC): Invalid timestamp');
  });

  it('lists the fields an update changed, and names the record', () => {
    const e = entry({
      old_value: { event_value: 'FISH', event_free_text: 'a', event_options: [] },
      new_value: { event_value: 'FISH', event_free_text: 'b', event_options: [{ event_option_name: 'x' }] },
    });
    expect(changedFields(e)).toEqual([
      { field: 'event_free_text', before: 'a', after: 'b' },
      { field: 'event_options', before: '[]', after: '[{"event_option_name":"x"}]' },
    ]);
    expect(recordName(e)).toBe('FISH');
    expect(changedFields(entry({ action: 'create', new_value: { username: 'pi' } }))).toEqual([]);
    expect(recordName(entry({ record_type: 'user', action: 'delete', old_value: { username: 'pi' } }))).toBe('pi');
  });

  it('offers a restore only for deleted events', () => {
    expect(isRestorable(entry({ action: 'delete' }))).toBe(true);
    expect(isRestorable(entry({ action: 'bulk_delete' }))).toBe(true);
    expect(isRestorable(entry({ action: 'wipe' }))).toBe(false);
    expect(isRestorable(entry({ action: 'delete', record_type: 'cruise' }))).toBe(false);
  });

  it('names the export by the time it was made', () => {
    expect(auditCsvFileName(new Date('2026-11-23T22:10:33Z'))).toBe('audit_20261123T2210Z.csv');
  });
});
