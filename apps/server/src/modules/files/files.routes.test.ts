import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { newObjectId, thumbnailWidthMessage } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import { clearRecords } from '../../../test/record-tests.js';
import {
  createCruise,
  createLowering,
  createUser,
  filepondBody,
  makeCruise,
  multipart,
} from '../../../test/api-fixtures.js';

type Json = Record<string, unknown>;
const files = '/sealog-server/files';

describe.each(engines)('file routes on %s', (engine) => {
  let t: TestApp;
  let users: RoleUsers;
  let admin: string;
  let cruise: string;
  let lowering: string;

  beforeAll(async () => {
    t = await createTestApp(engine, { uploadLimitMb: 0.01 });
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await clearRecords(t, admin);
    rmSync(path.join(t.dataDir, 'upload-tmp'), { recursive: true, force: true });
    cruise = await createCruise(t, admin);
    lowering = await createLowering(t, admin);
  });

  const request = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    opts: { token?: string; payload?: string | Buffer; headers?: Record<string, string> } = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
    });

  const process = (kind: 'cruises' | 'lowerings', id: string, name: string, data: string | Buffer, token = admin) => {
    const body = filepondBody(name, data);
    return request('POST', `${files}/${kind}/filepond/process/${id}`, {
      token,
      payload: body.payload,
      headers: body.headers,
    });
  };

  const uploadDir = (kind: 'cruises' | 'lowerings') => path.join(t.dataDir, 'upload-tmp', kind);
  const pendingUploads = (kind: 'cruises' | 'lowerings') =>
    existsSync(uploadDir(kind)) ? readdirSync(uploadDir(kind)) : [];

  describe('FilePond upload → record → download → delete', () => {
    it('round-trips a cruise file', async () => {
      const processed = await process('cruises', cruise, 'cruise report.txt', 'Dive plan\n');
      expect(processed.statusCode).toBe(201);
      expect(processed.headers['content-type']).toBe('text/plain; charset=utf-8');
      const uploadId = processed.body;
      expect(uploadId).toMatch(new RegExp(`^${cruise}_[0-9a-f]{16}$`));
      // Not part of the record until the PATCH commits it.
      const before = (await t.api('GET', `/cruises/${cruise}`, { token: admin })).json() as {
        cruise_additional_meta: Json;
      };
      expect(before.cruise_additional_meta.cruise_files).toEqual([]);

      const patch = await t.api('PATCH', `/cruises/${cruise}`, {
        token: admin,
        body: { cruise_additional_meta: { cruise_files: [uploadId] } },
      });
      expect(patch.statusCode).toBe(204);
      const after = (await t.api('GET', `/cruises/${cruise}`, { token: users.tokens.event_watcher })).json() as {
        cruise_additional_meta: Json;
      };
      // A files-only meta attaches the files and keeps the rest of the meta.
      expect(after.cruise_additional_meta).toEqual({
        ...(makeCruise().cruise_additional_meta as Json),
        cruise_files: ['cruise report.txt'],
      });
      expect(pendingUploads('cruises')).toEqual([]);

      const url = `${files}/cruises/${cruise}/cruise%20report.txt`;
      const download = await request('GET', url, { token: users.tokens.event_watcher });
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe('Dive plan\n');
      expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(download.headers['content-disposition']).toBe(
        `attachment; filename="cruise report.txt"; filename*=UTF-8''cruise%20report.txt`,
      );
      expect((await request('GET', `${url}?token=${users.tokens.guest}`)).body).toBe('Dive plan\n');
      expect((await request('GET', url)).statusCode).toBe(401);
      expect((await request('GET', `${url}?token=nonsense`)).statusCode).toBe(401);
      expect((await request('GET', `${files}/cruises/${cruise}/missing.txt`, { token: admin })).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'Not Found',
      });

      expect((await request('DELETE', url, { token: users.tokens.event_watcher })).statusCode).toBe(403);
      expect((await request('DELETE', url, { token: users.tokens.cruise_manager })).statusCode).toBe(204);
      expect((await request('DELETE', url, { token: admin })).statusCode).toBe(204);
      expect((await request('GET', url, { token: admin })).statusCode).toBe(404);
      const emptied = (await t.api('GET', `/cruises/${cruise}`, { token: admin })).json() as {
        cruise_additional_meta: Json;
      };
      expect(emptied.cruise_additional_meta.cruise_files).toEqual([]);
    });

    it('round-trips lowering files the way the client sends them, storing real names only', async () => {
      const one = (
        await process(
          'lowerings',
          lowering,
          'FKt230303_S0492_Summary_Report.pdf',
          '%PDF-1.4 summary',
          users.tokens.cruise_manager,
        )
      ).body;
      const two = (await process('lowerings', lowering, 'S0492_Vehicle_Report.pdf', '%PDF-1.4 vehicle')).body;
      const stored = (await t.api('GET', `/lowerings/${lowering}`, { token: admin })).json() as {
        lowering_additional_meta: Json;
      };
      const meta = {
        ...stored.lowering_additional_meta,
        lowering_description: 'Edited with files',
        lowering_files: [one, two],
      };
      expect(
        (
          await t.api('PATCH', `/lowerings/${lowering}`, {
            token: users.tokens.cruise_manager,
            body: { lowering_additional_meta: meta },
          })
        ).statusCode,
      ).toBe(204);

      const after = (await t.api('GET', `/lowerings/${lowering}`, { token: admin })).json() as {
        lowering_additional_meta: Json;
      };
      expect(after.lowering_additional_meta.lowering_files).toEqual([
        'FKt230303_S0492_Summary_Report.pdf',
        'S0492_Vehicle_Report.pdf',
      ]);
      expect(after.lowering_additional_meta.lowering_description).toBe('Edited with files');
      const row = await t.ctx.database.db
        .selectFrom('lowerings')
        .select('lowering_additional_meta')
        .where('id', '=', lowering)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.lowering_additional_meta)).not.toHaveProperty('lowering_files');

      const pdf = await request('GET', `${files}/lowerings/${lowering}/S0492_Vehicle_Report.pdf`, { token: admin });
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.body).toBe('%PDF-1.4 vehicle');

      // Re-sending the names the record already has (a client echoing what it read) is harmless.
      const again = { ...after.lowering_additional_meta, lowering_description: 'Again' };
      expect(
        (await t.api('PATCH', `/lowerings/${lowering}`, { token: admin, body: { lowering_additional_meta: again } }))
          .statusCode,
      ).toBe(204);

      expect((await t.api('DELETE', `/lowerings/${lowering}`, { token: admin })).statusCode).toBe(204);
      expect(existsSync(path.join(t.ctx.paths.lowerings, lowering))).toBe(false);
    });

    it('refuses upload ids that are unknown, reverted or made for another record, and changes nothing', async () => {
      const other = await createCruise(t, admin, { cruise_id: 'OTHER' });
      const foreign = (await process('cruises', other, 'a.txt', 'a')).body;
      const reverted = (await process('cruises', cruise, 'b.txt', 'b')).body;
      expect(
        (
          await request('DELETE', `${files}/cruises/filepond/revert`, {
            token: admin,
            payload: reverted,
            headers: { 'content-type': 'text/plain' },
          })
        ).statusCode,
      ).toBe(204);

      for (const [entry, message] of [
        [foreign, `Upload ${foreign} was made for another cruise`],
        [reverted, `Upload not found: ${reverted}`],
        ['../../secret.txt', 'Unknown upload id: ../../secret.txt'],
      ]) {
        const res = await t.api('PATCH', `/cruises/${cruise}`, {
          token: admin,
          body: { cruise_location: 'changed', cruise_additional_meta: { cruise_name: 'x', cruise_files: [entry] } },
        });
        expect(res.statusCode).toBe(400);
        expect((res.json() as Json).message).toBe(message);
      }
      const body = (await t.api('GET', `/cruises/${cruise}`, { token: admin })).json() as Json;
      expect(body.cruise_location).toBe('Lost City, Mid-Atlantic Ridge');
      expect(pendingUploads('cruises')).toEqual([foreign]);
    });

    it('an upload never committed nor reverted is swept once it is a day old; a recent one stays', async () => {
      const old = (await process('lowerings', lowering, 'old.txt', 'old')).body;
      const recent = (await process('lowerings', lowering, 'recent.txt', 'recent')).body;
      const dayAndAMinuteAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 60_000);
      // An upload's age is its file's (the file store knows no folder times on S3).
      utimesSync(path.join(uploadDir('lowerings'), old, 'old.txt'), dayAndAMinuteAgo, dayAndAMinuteAgo);
      // The sweep runs with the next upload.
      const next = (await process('lowerings', lowering, 'next.txt', 'next')).body;
      expect(pendingUploads('lowerings').sort()).toEqual([next, recent].sort());
      for (const id of [recent, next]) {
        await request('DELETE', `${files}/lowerings/filepond/revert`, { token: admin, payload: id });
      }
      expect(pendingUploads('lowerings')).toEqual([]);
    });

    it('revert accepts a JSON-quoted id and refuses anything that is not an upload id', async () => {
      const id = (await process('lowerings', lowering, 'c.txt', 'c')).body;
      expect(
        (await request('DELETE', `${files}/lowerings/filepond/revert`, { token: admin, payload: JSON.stringify(id) }))
          .statusCode,
      ).toBe(204);
      expect(pendingUploads('lowerings')).toEqual([]);
      for (const payload of ['../../files', '/etc', '', `${lowering}_../../x`]) {
        const res = await request('DELETE', `${files}/lowerings/filepond/revert`, {
          token: admin,
          payload,
          headers: { 'content-type': 'text/plain' },
        });
        expect(res.statusCode).toBe(400);
      }
      expect(existsSync(t.ctx.paths.files)).toBe(true);
      expect(
        (
          await request('DELETE', `${files}/lowerings/filepond/revert`, {
            token: users.tokens.event_logger,
            payload: id,
          })
        ).statusCode,
      ).toBe(403);
    });

    it('stores a browser-sent path under its last name only, and refuses names with nothing safe left', async () => {
      const id = (await process('cruises', cruise, '../../../evil.txt', 'x')).body;
      const windows = (await process('cruises', cruise, 'C:\\Users\\pi\\notes.txt', 'y')).body;
      await t.api('PATCH', `/cruises/${cruise}`, {
        token: admin,
        body: { cruise_additional_meta: { cruise_files: [id, windows] } },
      });
      expect(readdirSync(path.join(t.ctx.paths.cruises, cruise)).sort()).toEqual(['evil.txt', 'notes.txt']);
      expect(existsSync(path.join(t.dataDir, 'evil.txt'))).toBe(false);
      for (const name of ['..', '.', 'a\u0000b']) {
        const res = await process('cruises', cruise, name, 'z');
        expect(res.statusCode).toBe(400);
        expect((res.json() as Json).message).toMatch(/^Invalid file name/);
      }
    });

    it('answers clear errors for a missing record, a non-multipart body, no file, and the wrong roles', async () => {
      const missing = newObjectId();
      expect((await process('cruises', missing, 'a.txt', 'a')).statusCode).toBe(404);
      const json = await request('POST', `${files}/cruises/filepond/process/${cruise}`, {
        token: admin,
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(json.statusCode).toBe(415);
      expect((json.json() as Json).message).toBe('Expected a multipart/form-data upload');
      // A multipart type without a usable boundary (found by the fuzz suite: it was a 500).
      for (const type of [
        'multipart/form-data',
        'multipart/form-data; boundary=',
        `multipart/form-data; boundary=${'b'.repeat(300)}`,
      ]) {
        for (const url of [`${files}/cruises/filepond/process/${cruise}`, `${files}/cruises/${cruise}`]) {
          const res = await request('POST', url, {
            token: admin,
            payload: '--x\r\n\r\n--x--',
            headers: { 'content-type': type },
          });
          expect(res.statusCode, `${url} ${type}`).toBe(400);
          expect((res.json() as Json).message).toBe('The multipart upload has no valid boundary');
        }
      }
      // A body that never reaches its boundary (found by the fuzz suite, seed 319476304: it was a 500).
      const logged = await t.api('POST', '/events', { token: admin, body: { event_value: 'PHOTO' } });
      const event = (logged.json() as { insertedId: string }).insertedId;
      for (const url of [
        `${files}/cruises/filepond/process/${cruise}`,
        `${files}/cruises/${cruise}`,
        `${files}/images/filepond/process/${event}`,
      ]) {
        for (const payload of [Buffer.alloc(2 * 1024 * 1024, 'a'), Buffer.from('--fuzzBoundary\r\nContent-Disp')]) {
          const res = await request('POST', url, {
            token: admin,
            payload,
            headers: { 'content-type': 'multipart/form-data; boundary=fuzzBoundary' },
          });
          expect(res.statusCode, `${url} ${payload.length}`).toBe(400);
          expect((res.json() as Json).message).toBe('The multipart upload is cut short or malformed');
        }
      }
      const fieldOnly = multipart([{ name: 'filepond', data: '{}' }]);
      const none = await request('POST', `${files}/cruises/filepond/process/${cruise}`, {
        token: admin,
        payload: fieldOnly.payload,
        headers: fieldOnly.headers,
      });
      expect(none.statusCode).toBe(400);
      expect((none.json() as Json).message).toBe('The upload holds no file');
      expect((await process('cruises', cruise, 'a.txt', 'a', users.tokens.event_watcher)).statusCode).toBe(403);
      expect((await process('lowerings', lowering, 'a.txt', 'a', users.tokens.template_manager)).statusCode).toBe(403);
      const anonymous = filepondBody('a.txt', 'a');
      expect(
        (
          await request('POST', `${files}/cruises/filepond/process/${cruise}`, {
            payload: anonymous.payload,
            headers: anonymous.headers,
          })
        ).statusCode,
      ).toBe(401);
      expect((await process('cruises', 'not-an-id' as string, 'a.txt', 'a')).statusCode).toBe(400);
      expect(pendingUploads('cruises')).toEqual([]);
    });
  });

  describe('limits', () => {
    it('answers 413 with the limit for an oversized file and keeps nothing', async () => {
      const big = Buffer.alloc(20 * 1024, 'x');
      const res = await process('cruises', cruise, 'big.bin', big);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        statusCode: 413,
        error: 'Request Entity Too Large',
        message: 'File too large: the upload limit is 0.01 MB per file',
      });
      expect(pendingUploads('cruises')).toEqual([]);
      const direct = multipart([{ name: 'file', filename: 'big.bin', data: big }]);
      const res2 = await request('POST', `${files}/cruises/${cruise}`, {
        token: admin,
        payload: direct.payload,
        headers: direct.headers,
      });
      expect(res2.statusCode).toBe(413);
      expect(readdirSync(path.join(t.ctx.paths.cruises, cruise))).toEqual([]);
    });

    it('accepts files larger than the 1 MB JSON body limit under the default 20 MB upload limit', async () => {
      const plain = await createTestApp(engine);
      try {
        const token = await plain.login('admin', 'demo');
        const id = await createCruise(plain, token);
        const body = filepondBody('survey.bin', Buffer.alloc(3 * 1024 * 1024, 'x'));
        const res = await plain.app.inject({
          method: 'POST',
          url: `${files}/cruises/filepond/process/${id}`,
          headers: { ...body.headers, authorization: `Bearer ${token}` },
          payload: body.payload,
        });
        expect(res.statusCode).toBe(201);
      } finally {
        await plain.close();
      }
    });

    it('a refused upload leaves no folder behind, not even the temporary one its first file made', async () => {
      // Found by the fuzz suite: a good file, then one with no usable name.
      const uploads = path.join(t.dataDir, 'upload-tmp');
      rmSync(uploads, { recursive: true, force: true });
      const before = readdirSync(t.dataDir, { recursive: true }).sort();
      const body = multipart([
        { name: 'file', filename: 'good.txt', data: 'good' },
        { name: 'file', filename: '..', data: 'bad' },
      ]);
      for (const url of [`${files}/lowerings/${lowering}`, `${files}/lowerings/filepond/process/${lowering}`]) {
        const res = await request('POST', url, { token: admin, payload: body.payload, headers: body.headers });
        if (url.includes('filepond')) {
          // FilePond's route takes the first file only: stored, then reverted.
          expect(res.statusCode).toBe(201);
          await request('DELETE', `${files}/lowerings/filepond/revert`, {
            token: admin,
            payload: res.body,
            headers: { 'content-type': 'text/plain' },
          });
        } else {
          expect(res.statusCode).toBe(400);
          expect((res.json() as Json).message).toMatch(/^Invalid file name/);
        }
        expect(readdirSync(t.dataDir, { recursive: true }).sort(), url).toEqual(before);
      }
    });

    it('direct upload stores up to 5 files at once and refuses a 6th, storing none', async () => {
      const two = multipart([
        { name: 'file', filename: 'a.txt', data: 'a' },
        { name: 'file', filename: 'b.txt', data: 'b' },
      ]);
      const ok = await request('POST', `${files}/lowerings/${lowering}`, {
        token: users.tokens.cruise_manager,
        payload: two.payload,
        headers: two.headers,
      });
      expect(ok.statusCode).toBe(201);
      expect(ok.json()).toEqual({ files: ['a.txt', 'b.txt'] });
      const listed = (await t.api('GET', `/lowerings/${lowering}`, { token: admin })).json() as {
        lowering_additional_meta: Json;
      };
      expect(listed.lowering_additional_meta.lowering_files).toEqual(['a.txt', 'b.txt']);

      const six = multipart(
        Array.from({ length: 6 }, (_, i) => ({ name: 'file', filename: `f${i}.txt`, data: String(i) })),
      );
      const refused = await request('POST', `${files}/lowerings/${lowering}`, {
        token: admin,
        payload: six.payload,
        headers: six.headers,
      });
      expect(refused.statusCode).toBe(400);
      expect((refused.json() as Json).message).toBe('At most 5 files can be uploaded at once');
      expect(readdirSync(path.join(t.ctx.paths.lowerings, lowering)).sort()).toEqual(['a.txt', 'b.txt']);
      expect(pendingUploads('lowerings')).toEqual([]);
      expect(
        (
          await request('POST', `${files}/lowerings/${lowering}`, {
            token: users.tokens.event_watcher,
            payload: two.payload,
            headers: two.headers,
          })
        ).statusCode,
      ).toBe(403);
    });
  });

  describe('image thumbnails (?w=)', () => {
    const folder = () => path.join(t.ctx.paths.images, 'Thumbs');
    let originalBytes: number;

    beforeEach(async () => {
      mkdirSync(folder(), { recursive: true });
      rmSync(path.join(folder(), '.thumbnails'), { recursive: true, force: true });
      // A noisy picture, so JPEG cannot shrink it to nothing at full size.
      const raw = Buffer.alloc(1200 * 800 * 3);
      for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
      const jpeg = await sharp(raw, { raw: { width: 1200, height: 800, channels: 3 } })
        .jpeg({ quality: 90 })
        .toBuffer();
      writeFileSync(path.join(folder(), 'frame 02.jpg'), jpeg);
      writeFileSync(path.join(folder(), 'notes.txt'), 'not a picture');
      originalBytes = jpeg.length;
    });

    it('answers a smaller JPEG of the asked width and caches it beside the original', async () => {
      const res = await request('GET', `${files}/images/Thumbs/frame%2002.jpg?w=320`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.rawPayload.length).toBeLessThan(originalBytes);
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([320, 213]);
      const cached = path.join(folder(), '.thumbnails', '320', 'frame 02.jpg.jpg');
      expect(readFileSync(cached).equals(res.rawPayload)).toBe(true);
      const again = await request('GET', `${files}/images/Thumbs/frame%2002.jpg?w=320`);
      expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
      // The original is untouched without w.
      expect((await request('GET', `${files}/images/Thumbs/frame%2002.jpg`)).rawPayload.length).toBe(originalBytes);
    });

    it('never enlarges a picture narrower than the width', async () => {
      const res = await request('GET', `${files}/images/Thumbs/frame%2002.jpg?w=1280`);
      expect(res.statusCode).toBe(200);
      expect((await sharp(res.rawPayload).metadata()).width).toBe(1200);
    });

    it.each(['0', '321', '-320', 'abc', '320.5', ''])('w=%s is a 400 naming the allowed widths', async (w) => {
      const res = await request('GET', `${files}/images/Thumbs/frame%2002.jpg?w=${w}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: thumbnailWidthMessage });
    });

    it('a missing original is a 404, a file that is no image a 415', async () => {
      const missing = await request('GET', `${files}/images/Thumbs/none.jpg?w=320`);
      expect(missing.statusCode).toBe(404);
      const text = await request('GET', `${files}/images/Thumbs/notes.txt?w=320`);
      expect(text.statusCode).toBe(415);
      expect(text.json().message).toBe('No thumbnail can be made of notes.txt: not an image');
    });

    it.each(['/images/../secret.txt', '/images/..%2Fsecret.txt', '/images/%2e%2e/Thumbs/frame%2002.jpg'])(
      'GET %s?w=320 is refused',
      async (suffix) => {
        writeFileSync(path.join(t.dataDir, 'secret.txt'), 'TOP-SECRET');
        const res = await request('GET', `${files}${suffix}?w=320`);
        expect([400, 404]).toContain(res.statusCode);
        expect(res.body).not.toContain('TOP-SECRET');
      },
    );
  });

  describe('paths never leave the data folder', () => {
    const secret = 'TOP-SECRET';
    // Each test starts from a wiped cruise folder (DELETE /cruises/all), so the bait is laid again.
    beforeEach(() => {
      const link = (target: string, at: string) => existsSync(at) || symlinkSync(target, at);
      writeFileSync(path.join(t.dataDir, 'secret.txt'), secret);
      writeFileSync(path.join(t.ctx.paths.files, 'secret.txt'), secret);
      writeFileSync(path.join(t.ctx.paths.cruises, 'secret.txt'), secret);
      mkdirSync(path.join(t.ctx.paths.images, 'SuBastian'), { recursive: true });
      writeFileSync(path.join(t.ctx.paths.images, 'SuBastian', 'frame 01.jpg'), 'JPEGDATA');
      link(path.join(t.dataDir, 'secret.txt'), path.join(t.ctx.paths.images, 'link.jpg'));
      link(t.dataDir, path.join(t.ctx.paths.images, 'escape'));
    });

    it('serves images without a token, nested folders included', async () => {
      const res = await request('GET', `${files}/images/SuBastian/frame%2001.jpg`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body).toBe('JPEGDATA');
      expect((await request('GET', `${files}/images/SuBastian/none.jpg`)).statusCode).toBe(404);
      expect((await request('GET', `${files}/images/SuBastian`)).statusCode).toBe(404);
    });

    it.each([
      '/images/../secret.txt',
      '/images/..%2Fsecret.txt',
      '/images/%2e%2e/secret.txt',
      '/images/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/images/%252e%252e/secret.txt',
      '/images/%2Fetc%2Fpasswd',
      '/images//etc/passwd',
      '/images/..%5Csecret.txt',
      '/images/a%00.jpg',
      '/images/link.jpg',
      '/images/escape/secret.txt',
      '/cruises/secret.txt',
      '/cruises/{cruise}/..%2F..%2Fsecret.txt',
      '/cruises/{cruise}/%2e%2e/secret.txt',
      '/cruises/{cruise}/../secret.txt',
      '/cruises/{cruise}%2F..%2Fsecret.txt',
      '/cruises/..%2Fsecret.txt',
      '/cruises/%2e%2e/files/secret.txt',
      '/lowerings/{lowering}/..%2F..%2Fcruises%2Fsecret.txt',
    ])('GET %s is refused', async (suffix) => {
      const url = `${files}${suffix.replace('{cruise}', cruise).replace('{lowering}', lowering)}`;
      const res = await request('GET', url, { token: admin });
      expect([400, 404]).toContain(res.statusCode);
      expect(res.body).not.toContain(secret);
    });

    it('deletes refuse traversal and never follow a symlink', async () => {
      const folder = path.join(t.ctx.paths.cruises, cruise);
      symlinkSync(path.join(t.dataDir, 'secret.txt'), path.join(folder, 'link.txt'));
      for (const suffix of [
        `${cruise}/..%2Fsecret.txt`,
        `${cruise}/%2e%2e/secret.txt`,
        '..%2Fsecret.txt',
        `${cruise}/link.txt`,
        `${cruise}/..%2F..%2F..%2Fsecret.txt`,
      ]) {
        const res = await request('DELETE', `${files}/cruises/${suffix}`, { token: admin });
        expect([204, 400, 404]).toContain(res.statusCode);
      }
      expect(readFileSync(path.join(t.dataDir, 'secret.txt'), 'utf8')).toBe(secret);
      expect(readFileSync(path.join(t.ctx.paths.cruises, 'secret.txt'), 'utf8')).toBe(secret);
      expect((await request('GET', `${files}/cruises/${cruise}/link.txt`, { token: admin })).statusCode).toBe(404);
    });
  });

  describe('access control on', () => {
    it('refuses a file of a cruise whose access list lacks the caller', async () => {
      const ac = await createTestApp(engine, { useAccessControl: true });
      try {
        const acAdmin = await ac.login('admin', 'demo');
        const alice = await createUser(ac, acAdmin, 'alice', ['event_watcher']);
        const bob = await createUser(ac, acAdmin, 'bob', ['event_watcher']);
        const id = await createCruise(ac, acAdmin, { cruise_access_list: [alice.id] });
        const direct = multipart([{ name: 'file', filename: 'plan.txt', data: 'plan' }]);
        await ac.app.inject({
          method: 'POST',
          url: `${files}/cruises/${id}`,
          headers: { ...direct.headers, authorization: `Bearer ${acAdmin}` },
          payload: direct.payload,
        });
        const url = `${files}/cruises/${id}/plan.txt`;
        expect((await ac.app.inject({ method: 'GET', url: `${url}?token=${alice.token}` })).body).toBe('plan');
        const refused = await ac.app.inject({ method: 'GET', url: `${url}?token=${bob.token}` });
        expect(refused.statusCode).toBe(401);
        expect((refused.json() as Json).message).toBe('User not authorized to retrieve this cruise');
      } finally {
        await ac.close();
      }
    });
  });
});
