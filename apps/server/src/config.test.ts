import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { createUserSchema, formatZodError } from '@bathylog/shared';
import { ConfigError, isPostgres, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults: port 8000, production, SQLite in ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8000);
    expect(config.mode).toBe('production');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(isPostgres(config)).toBe(false);
    expect(config.client.headerTitle).toBe('Bathylog');
  });

  it('reads environment variables, including the Sealog names', () => {
    const config = loadConfig({
      SEALOG_SERVER_PORT: '8100',
      BATHYLOG_DATA: '/tmp/ship',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/sealog',
      BATHYLOG_MODE: 'demo',
      BATHYLOG_REGISTRATION_ROLES: 'event_watcher, event_logger',
      BATHYLOG_ACCESS_CONTROL: 'true',
      BATHYLOG_HEADER_TITLE: 'Sealog for Jason',
    });
    expect(config.port).toBe(8100);
    expect(config.dataDir).toBe('/tmp/ship');
    expect(isPostgres(config)).toBe(true);
    expect(config.mode).toBe('demo');
    expect(config.registration.roles).toEqual(['event_watcher', 'event_logger']);
    expect(config.useAccessControl).toBe(true);
    // One switch for both ends.
    expect(config.client.useAccessControl).toBe(true);
    expect(config.client.headerTitle).toBe('Sealog for Jason');
  });

  it('grants no role the whole server under the public archive unless told; an unknown role stops start-up', () => {
    expect(loadConfig({}).archiveReaderRoles).toEqual([]);
    expect(loadConfig({ BATHYLOG_ARCHIVE_READER_ROLES: 'cruise_manager, event_manager' }).archiveReaderRoles).toEqual([
      'cruise_manager',
      'event_manager',
    ]);
    expect(() => loadConfig({ BATHYLOG_ARCHIVE_READER_ROLES: 'curator' })).toThrow(/archiveReaderRoles/);
  });

  it('demo mode brings demo client settings that the file and environment can still override', () => {
    expect(loadConfig({ BATHYLOG_MODE: 'demo' }).client.defaultVessel).toBe('R/V Falkor (too)');
    expect(loadConfig({ BATHYLOG_MODE: 'demo', BATHYLOG_HEADER_TITLE: 'Mine' }).client.headerTitle).toBe('Mine');
  });

  it('data completeness: off by default, sources, grace and maximum age from the environment, on in the demo', () => {
    expect(loadConfig({}).completeness).toEqual({ requiredAuxSources: [], graceSeconds: 10, maxAgeSeconds: 30 });
    expect(
      loadConfig({
        BATHYLOG_REQUIRED_AUX_SOURCES: 'vehicleRealtimeNavData, vehicleRealtimeFramegrabberData',
        BATHYLOG_AUX_GRACE_SECONDS: '5',
        BATHYLOG_AUX_MAX_AGE_SECONDS: '12.5',
      }).completeness,
    ).toEqual({
      requiredAuxSources: ['vehicleRealtimeNavData', 'vehicleRealtimeFramegrabberData'],
      graceSeconds: 5,
      maxAgeSeconds: 12.5,
    });
    expect(loadConfig({ BATHYLOG_MODE: 'demo' }).completeness.requiredAuxSources).toEqual(['vehicleRealtimeNavData']);
    // A lone comma turns it off in the demo too.
    expect(
      loadConfig({ BATHYLOG_MODE: 'demo', BATHYLOG_REQUIRED_AUX_SOURCES: ',' }).completeness.requiredAuxSources,
    ).toEqual([]);
    expect(() => loadConfig({ BATHYLOG_AUX_MAX_AGE_SECONDS: '0' })).toThrow(/completeness\.maxAgeSeconds/);
  });

  it('merges a JSON config file under the environment', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-config-'));
    const file = path.join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({ port: 9000, client: { customLoweringName: ['dive', 'dives'], categorySortOrder: ['vehicle'] } }),
    );
    const config = loadConfig({ BATHYLOG_CONFIG: file, PORT: '9100' });
    expect(config.port).toBe(9100);
    expect(config.client.customLoweringName).toEqual(['dive', 'dives']);
    expect(config.client.categorySortOrder).toEqual(['vehicle']);
  });

  it('stops with a message naming the bad key', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/port/);
    expect(() => loadConfig({ BATHYLOG_MODE: 'test' })).toThrow(/mode/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-config-'));
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ client: { eventExportLimit: -5 } }));
    expect(() => loadConfig({ BATHYLOG_CONFIG: file })).toThrow(/client\.eventExportLimit/);
    writeFileSync(file, JSON.stringify({ smtpHost: 'mail' }));
    expect(() => loadConfig({ BATHYLOG_CONFIG: file })).toThrow(/smtpHost/);
    writeFileSync(file, '{ not json');
    expect(() => loadConfig({ BATHYLOG_CONFIG: file })).toThrow(/Invalid configuration file/);
  });

  it("makes zod's own messages English: the shared schemas use zod/mini, which loads no locale", () => {
    z.config({ localeError: undefined });
    expect(z.object({ n: z.number() }).safeParse({}).error?.issues[0]?.message).toBe('Invalid input');
    loadConfig({});
    expect(z.object({ n: z.number() }).safeParse({}).error?.issues[0]?.message).toBe(
      'Invalid input: expected number, received undefined',
    );
    const noUsername = createUserSchema.safeParse({ fullname: 'A', email: 'a@b.org', password: '', roles: ['admin'] });
    expect(formatZodError(noUsername.error!)).toBe('"username" is required');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-config-'));
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ client: { eventExportLimit: -5 } }));
    expect(() => loadConfig({ BATHYLOG_CONFIG: file })).toThrow(
      'Invalid configuration: client.eventExportLimit: Too small: expected number to be >0',
    );
  });

  it('sessions, write rate limits and allowed origins: defaults, environment, checks', () => {
    const defaults = loadConfig({});
    expect(defaults.sessions).toEqual({
      lifetimeSeconds: 7 * 24 * 60 * 60,
      renewAfterSeconds: 60 * 60,
      embedded: false,
    });
    // Authenticated writes are not limited unless configured; writes that name no caller are.
    expect(defaults.writeRateLimit).toEqual({ perKey: 0, perAddress: 120 });
    expect(defaults.allowedOrigins).toEqual([]);
    expect(defaults.trustProxy).toEqual([]);
    const config = loadConfig({
      BATHYLOG_SESSION_LIFETIME: '86400',
      BATHYLOG_SESSION_RENEW_AFTER: '600',
      BATHYLOG_RATE_LIMIT_PER_KEY: '30',
      BATHYLOG_RATE_LIMIT_PER_ADDRESS: '0',
      BATHYLOG_ALLOWED_ORIGINS: 'http://vehicle-client:8080, https://sealog.ship.local',
    });
    expect(config.sessions).toEqual({ lifetimeSeconds: 86400, renewAfterSeconds: 600, embedded: false });
    expect(config.writeRateLimit).toEqual({ perKey: 30, perAddress: 0 });
    expect(config.allowedOrigins).toEqual(['http://vehicle-client:8080', 'https://sealog.ship.local']);
    expect(() => loadConfig({ BATHYLOG_SESSION_LIFETIME: '10' })).toThrow(/sessions\.lifetimeSeconds/);
    expect(() => loadConfig({ BATHYLOG_SESSION_LIFETIME: '3600', BATHYLOG_SESSION_RENEW_AFTER: '3600' })).toThrow(
      /renewAfterSeconds: must be less than/,
    );
    expect(() => loadConfig({ BATHYLOG_ALLOWED_ORIGINS: 'http://host/path' })).toThrow(/allowedOrigins/);
    expect(
      loadConfig({ BATHYLOG_TRUST_PROXY: '10.0.0.1, 192.168.0.0/16, ::1, fd00::/8, loopback' }).trustProxy,
    ).toEqual(['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback']);
    for (const bad of ['proxy.local', '10.0.0.0/33', '10.0.0.1/8/1', '*']) {
      expect(() => loadConfig({ BATHYLOG_TRUST_PROXY: bad })).toThrow(
        'Invalid configuration: trustProxy[0]: must be an IP address, a CIDR range, loopback, linklocal or uniquelocal',
      );
    }
  });
});
