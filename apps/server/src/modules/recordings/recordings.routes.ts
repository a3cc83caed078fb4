import path from 'node:path';
import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import {
  cameraOffsetSchema,
  cameraParamsSchema,
  createRecordingSchema,
  framegrabJobQuerySchema,
  framegrabJobSchema,
  framegrabResultSchema,
  idParamsSchema,
  importRecordingsSchema,
  recordingMediaFileParamsSchema,
  recordingMediaQuerySchema,
  recordingSchema,
  setCameraOffsetSchema,
  updateRecordingSchema,
  videoAtQuerySchema,
  videoLinkSchema,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { caller } from '../../plugins/auth.js';
import { fileResponse, noContent } from '../../plugins/response-schemas.js';
import { parseRange, sendStoredRange } from '../../storage/index.js';
import type { ApiInstance } from '../../plugins/types.js';
import { eventAccess } from '../access/event-access.js';
import { frameGrabberFor, RecordingsService } from './recordings.service.js';

/**
 * Video recordings (docs/video.md#api): admins and cruise managers register them per lowering;
 * whoever may open the lowering reads them, resolves times and plays them (range requests); event
 * writers grab an event's frame, lowering writers run the lowering-wide frame job.
 */
export function recordingsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new RecordingsService(ctx, frameGrabberFor(ctx));
  // A lowering's recordings follow the rule for opening the lowering (access lists, the archive).
  const read = { auth: true, scopes: ['admin', 'read_lowerings'], access: 'record', archive: true } as const;
  const write = { auth: true, scopes: ['admin', 'write_lowerings'], access: 'record' } as const;
  // A copied lowering's recordings are the ship's: named by the lowering, or by the recording's lowering.
  const byLowering = { ...write, origin: { type: 'lowering', id: 'params.id' } } as const;
  const loweringOfRecording = async (req: FastifyRequest) =>
    service.loweringOf((req.params as { id: string }).id).catch(() => undefined);
  const byRecording = { ...write, origin: { type: 'lowering', id: loweringOfRecording } } as const;
  const tags = ['recordings'];

  app.get(
    '/lowerings/:id/recordings',
    { config: read, schema: { params: idParamsSchema, tags, response: { 200: z.array(recordingSchema) } } },
    (req) => service.list(caller(req), req.params.id),
  );

  app.post(
    '/lowerings/:id/recordings',
    {
      config: byLowering,
      schema: { params: idParamsSchema, body: createRecordingSchema, tags, response: { 201: recordingSchema } },
    },
    async (req, reply) => reply.code(201).send(await service.create(caller(req), req.params.id, req.body)),
  );

  app.post(
    '/lowerings/:id/recordings/import',
    {
      config: byLowering,
      schema: {
        params: idParamsSchema,
        body: importRecordingsSchema,
        tags,
        response: { 201: z.array(recordingSchema) },
      },
    },
    async (req, reply) => reply.code(201).send(await service.importList(caller(req), req.params.id, req.body)),
  );

  app.get(
    '/recordings/:id',
    { config: read, schema: { params: idParamsSchema, tags, response: { 200: recordingSchema } } },
    (req) => service.get(caller(req), req.params.id),
  );

  app.patch(
    '/recordings/:id',
    {
      config: byRecording,
      schema: { params: idParamsSchema, body: updateRecordingSchema, tags, response: { 200: recordingSchema } },
    },
    (req) => service.update(caller(req), req.params.id, req.body),
  );

  app.delete(
    '/recordings/:id',
    { config: byRecording, schema: { params: idParamsSchema, tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.remove(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/lowerings/:id/camera_offsets',
    { config: read, schema: { params: idParamsSchema, tags, response: { 200: z.array(cameraOffsetSchema) } } },
    (req) => service.offsets(caller(req), req.params.id),
  );

  app.put(
    '/lowerings/:id/camera_offsets/:camera',
    {
      config: byLowering,
      schema: { params: cameraParamsSchema, body: setCameraOffsetSchema, tags, response: { 200: cameraOffsetSchema } },
    },
    (req) => service.setOffset(caller(req), req.params.id, req.params.camera, req.body.offset_ms),
  );

  app.get(
    '/lowerings/:id/video',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: videoAtQuerySchema,
        tags,
        response: { 200: z.array(videoLinkSchema) },
      },
    },
    (req) => service.resolveAt(caller(req), req.params.id, req.query.ts),
  );

  // An event's video follows the event access rule, like its aux data.
  app.get(
    '/events/:id/video',
    {
      config: { auth: true, scopes: ['admin', 'read_events'], access: 'events', archive: true },
      schema: { params: idParamsSchema, tags, response: { 200: z.array(videoLinkSchema) } },
    },
    (req) => service.videoOfEvent(req.params.id, eventAccess(req)),
  );

  app.post(
    '/events/:id/framegrab',
    {
      config: {
        auth: true,
        scopes: ['admin', 'write_events'],
        access: 'events',
        origin: { type: 'event', id: 'params.id' },
      },
      schema: { params: idParamsSchema, tags, response: { 200: framegrabResultSchema } },
    },
    (req) => service.grabEvent(caller(req), req.params.id, eventAccess(req)),
  );

  // The job leaves events copied from a ship out (their frames are the ship's).
  app.post(
    '/lowerings/:id/framegrabs',
    {
      config: { auth: true, scopes: ['admin', 'write_lowerings'], access: 'events', origin: 'bulk' },
      schema: { params: idParamsSchema, tags, response: { 202: framegrabJobSchema } },
    },
    async (req, reply) => reply.code(202).send(await service.startJob(caller(req), req.params.id, eventAccess(req))),
  );

  app.get(
    '/lowerings/:id/framegrabs',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: framegrabJobQuerySchema,
        tags,
        response: { 200: z.nullable(framegrabJobSchema) },
      },
    },
    (req) => service.job(caller(req), req.params.id, req.query.results ?? 'failed'),
  );

  const mediaTypes = ['video/mp4', 'application/vnd.apple.mpegurl', 'video/mp2t'];
  // The media of a recording, the copy a browser plays best unless a role is named: a local file
  // is served here with range requests; an HLS playlist redirects to its copy's file route (so its
  // relative segment names resolve beside it), an http(s) copy to its own URL.
  app.get(
    '/recordings/:id/media',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: recordingMediaQuerySchema,
        tags,
        response: {
          200: fileResponse(mediaTypes, 'The media'),
          206: fileResponse(mediaTypes, 'Part of the media'),
          302: fileResponse(['text/plain'], 'A redirect to an HLS playlist or a remote copy'),
        },
      },
    },
    async (req, reply) => {
      const { copy, role, source } = await service.media(caller(req), req.params.id, req.query.role);
      if (source.kind === 'stored') return sendStored(ctx, req, reply, source.key);
      if (source.kind === 'file' && role !== 'hls') return sendMedia(req, reply, source.path);
      const target =
        source.kind === 'url'
          ? source.url
          : `/sealog-server/api/v1/recordings/${req.params.id}/copies/${copy}/${encodeURIComponent(path.basename(source.path))}`;
      return reply.code(302).header('location', target).header('cache-control', 'no-store').send();
    },
  );

  // A copy's file with range requests; for an HLS copy also its segments and variant playlists,
  // by the names its playlist lists.
  app.get(
    '/recordings/:id/copies/:copy/:name',
    {
      config: read,
      schema: {
        params: recordingMediaFileParamsSchema,
        tags,
        response: {
          200: fileResponse(mediaTypes, 'The media'),
          206: fileResponse(mediaTypes, 'Part of the media'),
        },
      },
    },
    async (req, reply) => {
      const file = await service.mediaFile(caller(req), req.params.id, req.params.copy, req.params.name);
      return file.kind === 'stored' ? sendStored(ctx, req, reply, file.key) : sendMedia(req, reply, file.path);
    },
  );

  // A proxy made from the recording's best copy, into the file store (docs/video.md#proxies).
  app.post(
    '/recordings/:id/proxy',
    { config: byRecording, schema: { params: idParamsSchema, tags, response: { 202: recordingSchema } } },
    async (req, reply) => reply.code(202).send(await service.startProxy(caller(req), req.params.id)),
  );
}

/**
 * A stored copy (a proxy in the file store: the folder or a bucket) with range requests, after
 * the route's access check: streamed from the store, never a URL to it.
 */
async function sendStored(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, key: string) {
  const found = await ctx.store.stat(key);
  if (!found) throw new AppError('NOT_FOUND', 'The recording file is not on this server');
  const etag = `"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`;
  reply
    .type('video/mp4')
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('last-modified', new Date(found.mtimeMs).toUTCString())
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-cache');
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  // A range against another version of the file (If-Range) gets the whole new file.
  const ifRange = req.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, found.size);
  return sendStoredRange(
    ctx.store,
    reply,
    { key: key, size: found.size },
    range,
    'The recording file is not on this server',
  );
}

/** A media file with range requests (browsers' video seeks by them) and validators. */
async function sendMedia(req: FastifyRequest, reply: FastifyReply, file: string) {
  const result = await send(req.raw, path.basename(file), {
    root: path.dirname(file),
    dotfiles: 'deny',
    cacheControl: false,
    acceptRanges: true,
    etag: true,
    lastModified: true,
  });
  if (result.type === 'error') {
    const status = (result.metadata as { error?: { status?: number } }).error?.status ?? 404;
    throw new AppError(
      status === 416 ? 'BAD_REQUEST' : 'NOT_FOUND',
      status === 416 ? 'Range Not Satisfiable' : 'Not Found',
    );
  }
  reply.code(result.statusCode);
  for (const [k, v] of Object.entries(result.headers)) if (v !== undefined) reply.header(k, v);
  reply.header('x-content-type-options', 'nosniff').header('cache-control', 'private, no-cache');
  return reply.send(result.stream);
}
