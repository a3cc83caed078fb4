import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newObjectId } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createUser, filepondBody, multipart } from '../../../test/api-fixtures.js';

type Json = Record<string, unknown>;
const files = '/sealog-server/files';

/** The smallest valid PNG (1×1) and the first bytes of a JPEG: what the server sniffs. */
const png = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cfc000000301010018dd8db00000000049454e44ae426082',
  'hex',
);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);

describe.each(engines)('event attachments on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let author: { token: string; name: string };
  let other: string;
  let manager: string;
  let watcher: string;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(engine, { uploadLimitMb: 0.01 });
    admin = await t.login('admin', 'demo');
    const stamp = Date.now().toString(36);
    author = { name: `logger${stamp}`, token: (await createUser(t, admin, `logger${stamp}`, ['event_logger'])).token };
    other = (await createUser(t, admin, `other${stamp}`, ['event_logger'])).token;
    manager = (await createUser(t, admin, `manager${stamp}`, ['event_manager'])).token;
    watcher = (await createUser(t, admin, `watcher${stamp}`, ['event_watcher'])).token;
  });
  afterAll(() => t?.close());

  let event: string;
  beforeEach(async () => {
    const res = await t.api('POST', '/events', { token: author.token, body: { event_value: 'PHOTO' } });
    expect(res.statusCode, res.body).toBe(201);
    event = (res.json() as { insertedId: string }).insertedId;
  });

  const images = () => readdirSync(t.ctx.paths.images).filter((f) => !f.startsWith('.') || f.endsWith('.part'));
  const upload = (id: string, data: Buffer | string, token = author.token, name = `pic${++n}.png`) => {
    const body = filepondBody(name, data);
    return t.app.inject({
      method: 'POST',
      url: `${files}/images/filepond/process/${id}`,
      headers: { authorization: `Bearer ${token}`, ...body.headers },
      payload: body.payload,
    });
  };
  const revert = (name: string, token = author.token) =>
    t.app.inject({
      method: 'DELETE',
      url: `${files}/images/filepond/revert`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      payload: name,
    });
  const attachments = async (id: string) => {
    const res = await t.api('GET', `/event_aux_data?eventID=${id}&datasource=eventFileAttachments`, { token: admin });
    return res.statusCode === 404 ? null : ((res.json() as Json[])[0] as { data_array: Json[] });
  };
  const error = (statusCode: number, error: string, message: string) => ({ statusCode, error, message });

  it('upload → aux data pairs → download → removal of the file and its entry', async () => {
    const first = await upload(event, png);
    expect(first.statusCode, first.body).toBe(201);
    const name = first.body;
    expect(name).toMatch(new RegExp(`^${event}_[0-9a-f]{16}\\.png$`));
    const second = await upload(event, jpeg, manager, 'grab.jpeg');
    expect(second.statusCode).toBe(201);
    expect(second.body).toMatch(/\.jpg$/);

    expect((await attachments(event))?.data_array).toEqual([
      { data_name: 'camera_name', data_value: 'Attachments' },
      { data_name: 'filename', data_value: name },
      { data_name: 'camera_name', data_value: 'Attachments' },
      { data_name: 'filename', data_value: second.body },
    ]);
    // The event export carries them like any aux data.
    const exported = (await t.api('GET', `/event_exports/${event}`, { token: admin })).json() as {
      aux_data: Array<{ data_source: string }>;
    };
    expect(exported.aux_data.map((a) => a.data_source)).toContain('eventFileAttachments');

    const download = await t.app.inject({ method: 'GET', url: `${files}/images/${name}` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.rawPayload.equals(png)).toBe(true);

    expect((await revert(name)).statusCode).toBe(204);
    expect(existsSync(`${t.ctx.paths.images}/${name}`)).toBe(false);
    expect((await attachments(event))?.data_array).toEqual([
      { data_name: 'camera_name', data_value: 'Attachments' },
      { data_name: 'filename', data_value: second.body },
    ]);
    // Admins remove too; the record goes with the last picture.
    expect((await revert(JSON.stringify(second.body), admin)).statusCode).toBe(204);
    expect(await attachments(event)).toBeNull();
    expect((await revert(second.body, admin)).json()).toEqual(
      error(404, 'Not Found', `No attachment found: ${second.body}`),
    );
  });

  it('refuses wrong types, oversize files, a sixth picture and unknown events, leaving nothing behind', async () => {
    const before = images();
    const text = await upload(event, 'just some text, not a picture', author.token, 'notes.png');
    expect(text.json()).toEqual(error(415, 'Unsupported Media Type', 'Only PNG and JPEG pictures can be attached'));
    const big = await upload(event, Buffer.concat([png, Buffer.alloc(20 * 1024)]));
    expect(big.json()).toEqual(
      error(413, 'Request Entity Too Large', 'File too large: the upload limit is 0.01 MB per file'),
    );
    const missing = newObjectId();
    expect((await upload(missing, png)).json()).toEqual(error(404, 'Not Found', `No record found for id: ${missing}`));
    expect((await upload('123', png)).statusCode).toBe(400);
    expect(images()).toEqual(before);
    expect(await attachments(event)).toBeNull();

    for (let i = 0; i < 5; i++) expect((await upload(event, png)).statusCode).toBe(201);
    const sixth = await upload(event, png);
    expect(sixth.json()).toEqual(error(400, 'Bad Request', 'An event holds at most 5 pictures'));
    expect(images()).toHaveLength(before.length + 5);
    expect((await attachments(event))?.data_array).toHaveLength(10);

    const none = await t.app.inject({
      method: 'POST',
      url: `${files}/images/filepond/process/${event}`,
      headers: { authorization: `Bearer ${admin}`, ...multipart([{ name: 'filepond', data: '{}' }]).headers },
      payload: multipart([{ name: 'filepond', data: '{}' }]).payload,
    });
    expect(none.statusCode).toBe(400);
    expect((await revert('../../etc/passwd')).json()).toEqual(
      error(400, 'Bad Request', 'Invalid attachment: ../../etc/passwd'),
    );
  });

  it("only the event's author, admins and event managers attach or remove", async () => {
    const mine = await upload(event, png);
    expect(mine.statusCode).toBe(201);
    const message = (action: string) =>
      `Only the event's author, admins and event managers can ${action} pictures ${action === 'attach' ? 'to' : 'from'} this event`;
    expect((await upload(event, png, other)).json()).toEqual(error(403, 'Forbidden', message('attach')));
    expect((await revert(mine.body, other)).json()).toEqual(error(403, 'Forbidden', message('remove')));
    expect((await upload(event, png, watcher)).statusCode).toBe(403);
    expect((await revert(mine.body, manager)).statusCode).toBe(204);
    const anonymous = await t.app.inject({ method: 'POST', url: `${files}/images/filepond/process/${event}` });
    expect(anonymous.statusCode).toBe(401);
    expect(await attachments(event)).toBeNull();
  });

  it('deleting an event, a bulk delete and a wipe delete its pictures and their thumbnails; a restore lists only pictures still stored', async () => {
    const stored = (name: string) => existsSync(`${t.ctx.paths.images}/${name}`);
    const real = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    const first = (await upload(event, real)).body;
    const second = (await upload(event, png)).body;
    const thumb = await t.app.inject({
      method: 'GET',
      url: `${files}/images/${first}?w=160`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(thumb.statusCode, thumb.body).toBe(200);
    const thumbFile = `${t.ctx.paths.images}/.thumbnails/160/${first}.jpg`;
    expect(existsSync(thumbFile)).toBe(true);
    expect((await t.api('DELETE', `/events/${event}`, { token: admin })).statusCode).toBe(204);
    expect([stored(first), stored(second), existsSync(thumbFile)]).toEqual([false, false, false]);

    // Restored from its audit row: the event and its other aux data come back; no dangling picture entries.
    await t.api('POST', '/event_aux_data', {
      token: admin,
      body: {
        event_id: event,
        data_source: 'vehicleRealtimeNavData',
        data_array: [{ data_name: 'depth', data_value: '5' }],
      },
    });
    const gone = await t.api('POST', '/events', { token: author.token, body: { event_value: 'PHOTO' } });
    const goneId = (gone.json() as { insertedId: string }).insertedId;
    await t.api('POST', '/event_aux_data', {
      token: admin,
      body: {
        event_id: goneId,
        data_source: 'vehicleRealtimeNavData',
        data_array: [{ data_name: 'depth', data_value: '7' }],
      },
    });
    const kept = (await upload(goneId, png)).body;
    expect((await t.api('DELETE', `/events/${goneId}`, { token: admin })).statusCode).toBe(204);
    expect(stored(kept)).toBe(false);
    const audit = (await t.api('GET', `/audit?record_id=${goneId}&limit=1`, { token: admin })).json() as {
      entries: { seq: number; old_value: { aux_data: { data_source: string }[] } }[];
    };
    expect(audit.entries[0]!.old_value.aux_data.map((a) => a.data_source).sort()).toEqual([
      'eventFileAttachments',
      'vehicleRealtimeNavData',
    ]);
    expect((await t.api('POST', `/audit/${audit.entries[0]!.seq}/restore`, { token: admin })).statusCode).toBe(201);
    expect(await attachments(goneId)).toBeNull();
    const aux = (await t.api('GET', `/event_aux_data?eventID=${goneId}`, { token: admin })).json() as Json[];
    expect(aux.map((a) => a.data_source)).toEqual(['vehicleRealtimeNavData']);

    // Deleting the attachments record itself keeps its pictures (the Sealog 2.4 clients delete and
    // re-post the record to change it); they go with their event.
    const direct = (await upload(goneId, png)).body;
    const record = (
      await t.api('GET', `/event_aux_data?eventID=${goneId}&datasource=eventFileAttachments`, {
        token: admin,
      })
    ).json() as Json[];
    expect((await t.api('DELETE', `/event_aux_data/${String(record[0]!.id)}`, { token: admin })).statusCode).toBe(204);
    expect(stored(direct)).toBe(true);
    expect((await t.api('DELETE', `/events/${goneId}`, { token: admin })).statusCode).toBe(204);
    expect(stored(direct)).toBe(false);

    // Bulk delete by value.
    const bulk = (
      await t.api('POST', '/events', { token: author.token, body: { event_value: 'PHOTO_BULK' } })
    ).json() as {
      insertedId: string;
    };
    const bulkPic = (await upload(bulk.insertedId, png)).body;
    expect(stored(bulkPic)).toBe(true);
    expect((await t.api('DELETE', '/events?value=PHOTO_BULK', { token: admin })).json()).toMatchObject({
      deletedCount: 1,
    });
    expect(stored(bulkPic)).toBe(false);

    // A wipe leaves no attachment file behind (other pictures in the folder stay).
    const wiped = (
      await t.api('POST', '/events', { token: author.token, body: { event_value: 'PHOTO_WIPE' } })
    ).json() as {
      insertedId: string;
    };
    const wipedPic = (await upload(wiped.insertedId, png)).body;
    writeFileSync(`${t.ctx.paths.images}/camera_frame_0001.png`, png);
    expect((await t.api('DELETE', '/events/all', { token: admin })).statusCode).toBe(204);
    expect(stored(wipedPic)).toBe(false);
    expect(images().filter((f) => /^[0-9a-f]{24}_/.test(f))).toEqual([]);
    expect(stored('camera_frame_0001.png')).toBe(true);
  });
  describe('as the Sealog 2.4 clients write them', () => {
    const post = (body: Json) => t.api('POST', '/event_aux_data', { token: author.token, body });
    const record = async (id: string) =>
      (
        await t.api('GET', `/event_aux_data?eventID=${id}&datasource=eventFileAttachments`, { token: admin })
      ).json() as Array<Json & { id: string }>;
    /** The clients' rewrite of the attachments record: delete the one they read, post their own. */
    const rewrite = async (id: string, data_array: Json[]) => {
      const [current] = await record(id);
      if (current) {
        const del = await t.api('DELETE', `/event_aux_data/${current.id}`, { token: author.token });
        expect(del.statusCode).toBe(204);
      }
      const res = await post({ event_id: id, data_source: 'eventFileAttachments', data_array });
      expect(res.statusCode, res.body).toBe(201);
    };
    const del = (url: string, token = author.token) =>
      t.app.inject({ method: 'DELETE', url: `${files}/images/${url}`, headers: { authorization: `Bearer ${token}` } });

    it('vehicle 2.4 {camera_name, filename} with the original name: shown by that name, then deleted', async () => {
      const original = `IMG_${++n}.png`;
      const picture = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#c00' } })
        .png()
        .toBuffer();
      const up = await upload(event, picture, author.token, original);
      expect(up.statusCode, up.body).toBe(201);
      const stored = up.body;
      await rewrite(event, [
        { data_name: 'camera_name', data_value: original },
        { data_name: 'filename', data_value: original },
      ]);
      // The record is kept as the client wrote it, and the picture is still on disk.
      expect((await record(event))[0]!.data_array).toEqual([
        { data_name: 'camera_name', data_value: original },
        { data_name: 'filename', data_value: original },
      ]);
      expect(images()).toContain(stored);
      const shown = await t.app.inject({ method: 'GET', url: `${files}/images/${original}` });
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.rawPayload.equals(picture)).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: `${files}/images/${original}?w=160` })).statusCode).toBe(200);

      // Someone else may not delete it; an unknown name is 404; a frame grab is never an attachment.
      expect((await del(original, other)).statusCode).toBe(403);
      expect((await del(`nothing-${n}.png`)).json()).toEqual(
        error(404, 'Not Found', `No attachment found: nothing-${n}.png`),
      );
      writeFileSync(`${t.ctx.paths.images}/grab_${n}.png`, png);
      expect((await del(`grab_${n}.png`, admin)).statusCode).toBe(404);
      expect(images()).toContain(`grab_${n}.png`);
      expect((await del(`${newObjectId()}/${original}`)).statusCode).toBe(404);
      expect((await del(`a/b/${original}`)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'DELETE', url: `${files}/images/${original}` })).statusCode).toBe(401);

      const gone = await del(`${event}/${original}`);
      expect(gone.statusCode, gone.body).toBe(204);
      expect(images()).not.toContain(stored);
      expect(await record(event)).toEqual(
        expect.not.arrayContaining([expect.objectContaining({ data_source: 'eventFileAttachments' })]),
      );
      expect((await t.app.inject({ method: 'GET', url: `${files}/images/${original}` })).statusCode).toBe(404);
    });

    it('still counts pictures whose record a client deleted, so an event never holds more than five', async () => {
      for (let i = 0; i < 5; i++) expect((await upload(event, png)).statusCode).toBe(201);
      const [current] = await record(event);
      expect((await t.api('DELETE', `/event_aux_data/${current!.id}`, { token: author.token })).statusCode).toBe(204);
      const sixth = await upload(event, png);
      expect(sixth.json()).toEqual(error(400, 'Bad Request', 'An event holds at most 5 pictures'));
    });

    it('vessel 2.4.4+ {source, filename} with the stored name: shown, then deleted by name', async () => {
      const first = (await upload(event, png)).body;
      const second = (await upload(event, jpeg, author.token, 'second.jpg')).body;
      await rewrite(event, [
        { data_name: 'source', data_value: 'Attachment' },
        { data_name: 'filename', data_value: first },
        { data_name: 'source', data_value: 'Attachment' },
        { data_name: 'filename', data_value: second },
      ]);
      const shown = await t.app.inject({ method: 'GET', url: `${files}/images/${first}` });
      expect(shown.statusCode).toBe(200);
      expect(shown.rawPayload.equals(png)).toBe(true);
      const gone = await del(first);
      expect(gone.statusCode, gone.body).toBe(204);
      expect(images()).not.toContain(first);
      // The pair (label and file) goes, the other picture stays listed.
      expect((await record(event))[0]!.data_array).toEqual([
        { data_name: 'source', data_value: 'Attachment' },
        { data_name: 'filename', data_value: second },
      ]);
      // Our own client removes a vehicle-named picture through revert too.
      const named = `revert_${n}.png`;
      const third = (await upload(event, png, author.token, named)).body;
      await rewrite(event, [
        { data_name: 'source', data_value: 'Attachment' },
        { data_name: 'filename', data_value: second },
        { data_name: 'camera_name', data_value: named },
        { data_name: 'filename', data_value: named },
      ]);
      expect((await revert(named)).statusCode).toBe(204);
      expect(images()).not.toContain(third);
      expect((await record(event))[0]!.data_array).toHaveLength(2);
    });
  });
});
