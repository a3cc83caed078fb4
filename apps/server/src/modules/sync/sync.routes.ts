import { z } from 'zod/mini';
import {
  createShipSchema,
  defaultThumbnailWidth,
  idParamsSchema,
  shipSchema,
  syncChangesPageSchema,
  syncChangesQuerySchema,
  syncCommentSchema,
  syncStatusSchema,
  updateShipSchema,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { caller } from '../../plugins/auth.js';
import { fileResponse, noContent } from '../../plugins/response-schemas.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import type { ApiInstance } from '../../plugins/types.js';
import { thumbnailOf, thumbnailWidthOf } from '../files/thumbnails.js';
import { FeedReader } from './feed-reader.js';
import { feedFileKey } from './sync-files.js';
import { readProxyFile, recordingArea } from './sync-recordings.js';
import { parseRange } from '../../storage/index.js';
import { SyncShipService } from './sync-ship.service.js';
import { ShipsService } from './ships.service.js';

const fileQuery = z.strictObject({ width: z.optional(z.coerce.number().check(z.int())) });
const shaParams = z.strictObject({
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 (64 hex digits)')),
});

/** Ship-to-shore replication (docs/ship-to-shore.md): the feed a ship serves, the ships a shore follows. */
export function syncRoutes(app: ApiInstance, ctx: AppContext): void {
  const ship = new SyncShipService(ctx);
  const ships = new ShipsService(ctx);
  const authed = { auth: true } as const;
  const admin = { auth: true, scopes: ['admin'] } as const;
  const tags = ['sync'];

  app.get(
    '/sync/changes',
    {
      config: authed,
      schema: {
        querystring: syncChangesQuerySchema,
        tags,
        response: { 200: syncChangesPageSchema },
        summary: 'Changes after a cursor (device keys with a shore follower right, and admins)',
      },
    },
    async (req, reply) => {
      const auth = caller(req);
      // Refused before anything is noted; asked again at each read of a waiting request.
      await FeedReader.of(ctx, auth);
      await ship.noteFollower(auth, req.query.after);
      // A follower that is caught up may ask to wait for the next change (bounded by the server).
      const waitMs = Math.min(req.query.wait ?? 0, ctx.config.sync.maxWaitSeconds) * 1000;
      // The wait ends early when the follower went away, or its key (or user) was revoked meanwhile:
      // its next request is then refused at once.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const offRevoked = ctx.bus.subscribe(internalChannels.revoked, (r) => {
        if ('keyId' in r ? r.keyId === auth.key?.id : r.userId === auth.user.id) gone.abort();
      });
      try {
        return await ship.changes(
          () => FeedReader.of(ctx, auth),
          req.query.after,
          req.query.max_bytes,
          waitMs,
          gone.signal,
        );
      } finally {
        offRevoked();
      }
    },
  );

  app.get(
    '/sync/files/:sha256',
    {
      config: { ...authed, compress: false },
      schema: {
        params: shaParams,
        querystring: fileQuery,
        tags,
        response: {
          200: fileResponse(['application/octet-stream', 'image/jpeg'], 'the file, or its thumbnail with ?width='),
          206: fileResponse(['application/octet-stream'], 'the part of the file asked for'),
          416: noContent,
        },
        summary: 'A file named in the feed, by its SHA-256 (Range supported)',
      },
    },
    async (req, reply) => {
      const reader = await FeedReader.of(ctx, caller(req));
      const rows = await ctx.database.db
        .selectFrom('sync_file_hashes')
        .select(['path', 'size'])
        .where('sha256', '=', req.params.sha256)
        .execute();
      for (const row of rows) {
        // A file the reader may not read is answered as a missing one.
        if (!(await reader.mayReadFile(row.path))) continue;
        if (row.path.startsWith(`${recordingArea}/`) && req.query.width === undefined) {
          // A recording's proxy: in the file store, or a file registered under the data folder.
          const proxy = await readProxyFile(ctx, row.path);
          if (proxy) {
            reply.type('application/octet-stream').header('accept-ranges', 'bytes');
            const range = /^bytes=\d+-\d*$/.test(req.headers.range ?? '')
              ? parseRange(req.headers.range, proxy.size)
              : null;
            if (range === 'unsatisfiable') {
              return reply.code(416).header('content-range', `bytes */${proxy.size}`).send();
            }
            if (range) {
              const body = await proxy.open(range);
              return reply
                .code(206)
                .header('content-range', `bytes ${range.start}-${range.end}/${proxy.size}`)
                .header('content-length', range.end - range.start + 1)
                .send(body);
            }
            return reply.header('content-length', proxy.size).send(await proxy.open());
          }
        }
        const key = feedFileKey(row.path);
        const info = key ? await ctx.store.stat(key) : null;
        if (!key || !info) continue;
        if (req.query.width !== undefined) {
          const width = thumbnailWidthOf(String(req.query.width));
          const thumb = await thumbnailOf(ctx.store, key, key.split('/').at(-1)!, width ?? defaultThumbnailWidth);
          return reply.type(thumb.contentType).header('content-length', thumb.body.length).send(thumb.body);
        }
        reply.type('application/octet-stream').header('accept-ranges', 'bytes');
        const range = /^bytes=\d+-\d*$/.test(req.headers.range ?? '') ? parseRange(req.headers.range, info.size) : null;
        if (range === 'unsatisfiable') {
          return reply.code(416).header('content-range', `bytes */${info.size}`).send();
        }
        const body = await ctx.store.read(key, range ?? undefined);
        if (!body) continue;
        if (range) {
          return reply
            .code(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
            .header('content-length', range.end - range.start + 1)
            .send(body);
        }
        return reply.header('content-length', info.size).send(body);
      }
      throw new AppError('NOT_FOUND', `No file with checksum ${req.params.sha256}`);
    },
  );

  app.post(
    '/sync/comments',
    {
      // On the ship: a comment on the ship's own event (docs/ship-to-shore.md#comments-from-shore).
      config: { ...authed, origin: 'none' },
      schema: { body: syncCommentSchema, tags, response: { 201: noContent }, summary: 'A comment written on shore' },
    },
    async (req, reply) => {
      const auth = caller(req);
      await ship.comment(auth, await FeedReader.of(ctx, auth), req.body);
      return reply.code(201).send();
    },
  );

  app.get('/sync/status', { config: admin, schema: { tags, response: { 200: syncStatusSchema } } }, () =>
    ship.status(),
  );

  app.get('/ships', { config: admin, schema: { tags, response: { 200: z.array(shipSchema) } } }, () => ships.list());

  app.post(
    '/ships',
    { config: { ...admin, origin: 'none' }, schema: { body: createShipSchema, tags, response: { 201: shipSchema } } },
    async (req, reply) => reply.code(201).send(await ships.create(caller(req), req.body)),
  );

  app.patch(
    '/ships/:id',
    {
      config: { ...admin, origin: 'none' },
      schema: { params: idParamsSchema, body: updateShipSchema, tags, response: { 200: shipSchema } },
    },
    async (req) => ships.update(caller(req), req.params.id, req.body),
  );

  app.delete(
    '/ships/:id',
    { config: { ...admin, origin: 'none' }, schema: { params: idParamsSchema, tags, response: { 204: noContent } } },
    async (req, reply) => {
      await ships.remove(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );
}
