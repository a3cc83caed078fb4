import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, isObjectId, storedFilesSchema, thumbnailWidths } from '@bathylog/shared';
import { z } from 'zod/mini';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { fileChange, recordChange } from '../audit/audit.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { fileResponse, noContent } from '../../plugins/response-schemas.js';
import type { RecordKind } from '../access/access.repository.js';
import { eventAccess } from '../access/event-access.js';
import { CruisesService } from '../cruises/cruises.service.js';
import { LoweringsService } from '../lowerings/lowerings.service.js';
import { attachmentNamePattern } from './attachment-files.js';
import { EventAttachmentsService } from './event-attachments.service.js';
import { maxFilesPerUpload, RecordFilesService, uploadTooLarge } from './files.service.js';
import { mayViewImage } from './image-access.js';
import { contentTypeFor, isActiveContent } from './mime.js';
import { safeSegments, uploadFileName } from './safe-path.js';
import { thumbnailKey, thumbnailOf, thumbnailWidthOf } from './thumbnails.js';
import { imageKey } from './attachment-files.js';
import { parseRange, sendStoredRange, type StoredFile } from '../../storage/index.js';

const imageQuerySchema = z.object({
  w: z.optional(z.string()).check(z.describe(`Thumbnail width in px, one of ${thumbnailWidths.join(', ')}`)),
});
const imageRouteDescription =
  'An image written by an inserter script (no token needed unless access control is on; then a token is ' +
  'needed and the image must belong to an event the caller may see). With `w`, a JPEG thumbnail of that width ' +
  '(never enlarged), made on first request and cached on disk beside the original; any other width is a 400.';

export const filesPrefix = '/sealog-server/files';

/** FilePond's process answer: the stored name as plain text (FilePond reads it as the file's id). */
const uploadIdResponse = fileResponse(['text/plain'], 'The stored name of the upload');

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266). */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Streams a stored file from the store: whole, or the one byte range a `Range` header names (206,
 * as browsers and video players ask); a range past the end is a 416.
 */
async function sendFile(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  found: StoredFile,
  name: string,
  opts: { download: boolean },
) {
  const type = contentTypeFor(name);
  reply.header('content-type', type).header('accept-ranges', 'bytes').header('x-content-type-options', 'nosniff');
  if (opts.download || isActiveContent(type)) reply.header('content-disposition', attachment(name));
  const range = parseRange(req.headers.range, found.size);
  return sendStoredRange(ctx.store, reply, { key: found.key, size: found.size }, range, 'Not Found');
}

/** The path after the route prefix, checked segment by segment. */
function requestSegments(req: FastifyRequest): string[] {
  const raw = (req.params as { '*'?: string })['*'] ?? '';
  const segments = safeSegments(raw);
  if (!segments) throw new AppError('BAD_REQUEST', 'Invalid file path');
  return segments;
}

/** The stored (or original) picture name a FilePond revert names: its body, as text or JSON text. */
function revertedName(req: FastifyRequest): string {
  const body = typeof req.body === 'string' ? req.body.trim() : '';
  if (!body.startsWith('"')) return body;
  try {
    return String(JSON.parse(body));
  } catch {
    // Not JSON after all: checked as it is.
    return body;
  }
}

/** An attachment delete's `images/<name>` or `images/<event id>/<name>`; any other shape is not found. */
function attachmentPath(req: FastifyRequest): { name: string; eventId: string | undefined } {
  const segments = requestSegments(req);
  const name = segments.at(-1) ?? '';
  const eventId = segments.length === 2 ? segments[0] : undefined;
  if (segments.length > 2 || (eventId !== undefined && !isObjectId(eventId)))
    throw new AppError('NOT_FOUND', `No attachment found: ${segments.join('/')}`);
  return { name, eventId };
}

/** `<record id>/<file name>`, the only shape of a record file path; anything else is not found. */
function recordFilePath(req: FastifyRequest): { id: string; name: string } {
  const segments = requestSegments(req);
  if (segments.length !== 2 || !isObjectId(segments[0])) throw new AppError('NOT_FOUND', 'Not Found');
  return { id: segments[0]!, name: segments[1]! };
}

/** Multipart limit errors from the reader, as the answers a user can act on. */
function uploadError(err: unknown, limitMb: number): unknown {
  const code = (err as { code?: string })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return uploadTooLarge(limitMb);
  if (code === 'FST_FILES_LIMIT')
    return new AppError('BAD_REQUEST', `At most ${maxFilesPerUpload} files can be uploaded at once`);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new AppError('BAD_REQUEST', 'Too many parts in the upload');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Expected a multipart/form-data upload');
  // The multipart parser's own errors carry no code: a body that ends before its closing boundary
  // ("Unexpected end of multipart data", or "Part terminated early due to …") is the client's.
  if (err instanceof Error && /unexpected end of multipart data/i.test(err.message))
    return new AppError('BAD_REQUEST', 'The multipart upload is cut short or malformed');
  return err;
}

/** `boundary=` of a multipart content type: 1 to 70 characters (RFC 2046), quoted or not. */
const boundaryParam = /;\s*boundary=(?:"[^"]{1,70}"|[^\s;"]{1,70})\s*(?:;|$)/i;

function assertMultipart(req: FastifyRequest): void {
  if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Expected a multipart/form-data upload');
  // The multipart reader throws a bare error (a 500) on a missing or oversized boundary.
  if (!boundaryParam.test(req.headers['content-type'] ?? '')) {
    throw new AppError('BAD_REQUEST', 'The multipart upload has no valid boundary');
  }
}

/**
 * File routes under /sealog-server/files (docs/wire.md#files): downloads of cruise and lowering
 * files (bearer token or `?token=`), public images, the FilePond process/revert pair, direct
 * uploads, and deletes. Multipart parsing is registered in this scope only, so no other route
 * accepts multipart bodies.
 */
export async function filesRoutes(app: ApiInstance, ctx: AppContext): Promise<void> {
  const files = new RecordFilesService(ctx);
  const cruises = new CruisesService(ctx);
  const lowerings = new LoweringsService(ctx);
  const limitMb = ctx.config.uploadLimitMb;
  const services = { cruise: cruises, lowering: lowerings };
  const attachments = new EventAttachmentsService(ctx);

  await app.register(
    async (plain) => {
      const scope = plain.withTypeProvider<ZodTypeProvider>();
      // Revert bodies are the bare upload id as text, whatever content type the browser set.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) =>
        done(null, body),
      );
      await scope.register(multipart, {
        limits: {
          fileSize: Math.round(limitMb * 1024 * 1024),
          files: maxFilesPerUpload,
          fields: 20,
          parts: 40,
        },
        throwFileSizeLimit: true,
      });

      for (const kind of ['cruise', 'lowering'] as const satisfies readonly RecordKind[]) {
        const plural = `${kind}s`;
        // A record's own files follow the rule for opening the record by id (`assertOpenable`).
        const read = {
          auth: true,
          scopes: ['admin', `read_${plural}` as 'read_cruises' | 'read_lowerings'],
          access: 'record',
          archive: true,
        } as const;
        const write = {
          auth: true,
          scopes: ['admin', `write_${plural}` as 'write_cruises' | 'write_lowerings'],
          access: 'record',
        } as const;
        // A copied record's files are the ship's (docs/ship-to-shore.md#read-only-on-shore); a
        // pending upload (revert) belongs to no record yet.
        const byParam = { ...write, origin: { type: kind, id: 'params.id' } } as const;
        const byPath = { ...write, origin: { type: kind, id: 'path.record' } } as const;
        const tags = ['files'];
        const service = services[kind];

        scope.get(
          `/${plural}/*`,
          { config: read, schema: { tags, response: { 200: fileResponse(['*/*'], 'The file') } } },
          async (req, reply) => {
            const { id, name } = recordFilePath(req);
            await service.assertOpenable(caller(req), id, 'retrieve');
            const found = await files.findFile(kind, id, name);
            if (!found) throw new AppError('NOT_FOUND', 'Not Found');
            return sendFile(ctx, req, reply, found, name, { download: true });
          },
        );

        scope.post(
          `/${plural}/filepond/process/:id`,
          { config: byParam, schema: { params: idParamsSchema, tags, response: { 201: uploadIdResponse } } },
          async (req, reply) => {
            const { id } = req.params;
            await service.assertOpenable(caller(req), id, 'edit');
            assertMultipart(req);
            let uploadId: string | undefined;
            try {
              // FilePond sends a metadata field and the file under the same name; take the file.
              for await (const part of req.parts()) {
                if (part.type !== 'file') continue;
                if (uploadId !== undefined) {
                  part.file.resume();
                  continue;
                }
                const name = uploadFileName(part.filename);
                if (!name) throw new AppError('BAD_REQUEST', `Invalid file name: ${part.filename}`);
                uploadId = await files.saveUpload(kind, id, name, part.file);
              }
            } catch (err) {
              if (uploadId) await files.revertUpload(kind, uploadId);
              throw uploadError(err, limitMb);
            }
            if (!uploadId) throw new AppError('BAD_REQUEST', 'The upload holds no file');
            return reply.code(201).type('text/plain; charset=utf-8').send(uploadId);
          },
        );

        scope.delete(
          `/${plural}/filepond/revert`,
          { config: { ...write, origin: 'none' }, schema: { tags, response: { 204: noContent } } },
          async (req, reply) => {
            let body = typeof req.body === 'string' ? req.body.trim() : '';
            if (body.startsWith('"')) {
              try {
                body = String(JSON.parse(body));
              } catch {
                // Not JSON after all: checked as it is below.
              }
            }
            await files.revertUpload(kind, body);
            return reply.code(204).send();
          },
        );

        scope.delete(
          `/${plural}/*`,
          { config: byPath, schema: { tags, response: { 204: noContent } } },
          async (req, reply) => {
            const { id, name } = recordFilePath(req);
            await service.assertOpenable(caller(req), id, 'edit');
            if (await files.deleteFile(kind, id, name))
              await recordChange(
                ctx.database.db,
                caller(req),
                fileChange('delete', { record_type: kind, record_id: id }, [name]),
              );
            return reply.code(204).send();
          },
        );

        // Direct upload (multipart, up to 5 files): Sealog's route always failed (a bad
        // parameter name), so no client relies on its answer.
        // All files are received first, then moved in together, so a failed request stores nothing.
        scope.post(
          `/${plural}/:id`,
          { config: byParam, schema: { params: idParamsSchema, tags, response: { 201: storedFilesSchema } } },
          async (req, reply) => {
            const { id } = req.params;
            await service.assertOpenable(caller(req), id, 'edit');
            assertMultipart(req);
            const uploadIds: string[] = [];
            try {
              for await (const part of req.parts()) {
                if (part.type !== 'file') continue;
                const file = part as MultipartFile;
                const name = uploadFileName(file.filename);
                if (!name) throw new AppError('BAD_REQUEST', `Invalid file name: ${file.filename}`);
                uploadIds.push(await files.saveUpload(kind, id, name, file.file));
              }
            } catch (err) {
              for (const uploadId of uploadIds) await files.revertUpload(kind, uploadId);
              throw uploadError(err, limitMb);
            }
            if (uploadIds.length === 0) throw new AppError('BAD_REQUEST', 'The upload holds no file');
            const stored = await files.commitUploads(kind, id, uploadIds);
            await recordChange(
              ctx.database.db,
              caller(req),
              fileChange('upload', { record_type: kind, record_id: id }, stored),
            );
            return reply.code(201).send({ files: stored });
          },
        );
      }

      // Event attachments (Sealog 2.4): FilePond's process stores the picture at once and answers
      // its stored name; revert (with that name as the body) removes it again.
      const writeEvents = { auth: true, scopes: ['admin', 'write_events'], access: 'events' } as const;
      // A copied event's pictures are the ship's (docs/ship-to-shore.md#read-only-on-shore): each
      // route names the event whose picture it changes.
      const attachmentEvent = async (req: FastifyRequest, name: string, eventId?: string) =>
        (await attachments.resolve(name, eventAccess(req), eventId))?.eventId;
      scope.post(
        '/images/filepond/process/:id',
        {
          config: { ...writeEvents, origin: { type: 'event', id: 'params.id' } },
          schema: { params: idParamsSchema, tags: ['files'], response: { 201: uploadIdResponse } },
        },
        async (req, reply) => {
          const { id } = req.params;
          await attachments.assertCanAttach(caller(req), id, eventAccess(req));
          assertMultipart(req);
          let stored: string | undefined;
          try {
            for await (const part of req.parts()) {
              if (part.type !== 'file') continue;
              if (stored !== undefined) {
                part.file.resume();
                continue;
              }
              stored = await attachments.attach(caller(req), id, part.file, eventAccess(req), part.filename);
            }
          } catch (err) {
            if (stored) await attachments.remove(caller(req), stored, eventAccess(req)).catch(() => undefined);
            throw uploadError(err, limitMb);
          }
          if (!stored) throw new AppError('BAD_REQUEST', 'The upload holds no file');
          return reply.code(201).type('text/plain; charset=utf-8').send(stored);
        },
      );
      scope.delete(
        '/images/filepond/revert',
        {
          config: { ...writeEvents, origin: { type: 'event', id: (req) => attachmentEvent(req, revertedName(req)) } },
          schema: { tags: ['files'], response: { 204: noContent } },
        },
        async (req, reply) => {
          const body = revertedName(req);
          // A picture the record lists by its original name (vehicle client) is found by it too.
          const found = attachmentNamePattern.test(body) ? null : await attachments.resolve(body, eventAccess(req));
          if (found) await attachments.remove(caller(req), found.stored, eventAccess(req), body);
          else await attachments.remove(caller(req), body, eventAccess(req));
          return reply.code(204).send();
        },
      );
      // The Sealog 2.4 clients' attachment delete: `images/<name>` or `images/<event id>/<name>`,
      // the name stored or (vehicle client) the original one; only an attachment, never a frame grab.
      scope.delete(
        '/images/*',
        {
          config: {
            ...writeEvents,
            origin: {
              type: 'event',
              id: (req) => {
                const { name, eventId } = attachmentPath(req);
                return attachmentEvent(req, name, eventId);
              },
            },
          },
          schema: { tags: ['files'], response: { 204: noContent } },
        },
        async (req, reply) => {
          const { name, eventId } = attachmentPath(req);
          const found = await attachments.resolve(name, eventAccess(req), eventId);
          if (!found) throw new AppError('NOT_FOUND', `No attachment found: ${name}`);
          await attachments.remove(
            caller(req),
            found.stored,
            eventAccess(req),
            found.stored === name ? undefined : name,
          );
          return reply.code(204).send();
        },
      );

      // Frame grabs and other images written by inserter scripts: public, as in Sealog, while access
      // control is off. With it on, a token (header, cookie or `?token=`) is needed and the image must
      // belong to an event the caller may see (image-access.ts).
      // `?w=<width>` answers a JPEG thumbnail of that width (thumbnails.ts), cached beside the original.
      // With the public archive on, a request without a token is the archive visitor, who sees only
      // the images of open archive dives; a token is read when present (docs/public-archive.md).
      const archive = ctx.config.publicArchive ? ({ archive: true } as const) : {};
      const imageConfig: FastifyContextConfig = ctx.config.useAccessControl
        ? { auth: true, scopes: ['admin', 'read_events'], access: 'image', ...archive }
        : ctx.config.publicArchive
          ? { auth: 'optional', access: 'image', archive: true }
          : { access: 'image' };
      scope.get(
        '/images/*',
        {
          config: imageConfig,
          schema: {
            tags: ['files'],
            querystring: imageQuerySchema,
            description: imageRouteDescription,
            response: { 200: fileResponse(['image/*'], 'The image, or its JPEG thumbnail with ?w=') },
          },
        },
        async (req, reply) => {
          const width = thumbnailWidthOf((req.query as { w?: unknown }).w);
          const segments = requestSegments(req);
          if (!(await mayViewImage(ctx, eventAccess(req), segments))) throw new AppError('NOT_FOUND', 'Not Found');
          let name = segments.at(-1)!;
          let found = await files.findImage(segments);
          if (!found && segments.length === 1) {
            // The Sealog 2.4 vehicle client asks for an attachment by its original name.
            const attached = await attachments.resolve(name, eventAccess(req));
            if (attached) {
              name = attached.stored;
              found = await files.findImage([name]);
            }
          }
          if (!found && width !== undefined && segments.length === 1) {
            // A frame grab from a ship whose thumbnail arrived before the image (docs/ship-to-shore.md#files).
            const early = await ctx.store.readBuffer(thumbnailKey(imageKey(name), width));
            if (early)
              return reply.header('content-type', 'image/jpeg').header('x-content-type-options', 'nosniff').send(early);
          }
          if (!found) throw new AppError('NOT_FOUND', 'Not Found');
          if (width === undefined) return sendFile(ctx, req, reply, found, name, { download: false });
          const thumb = await thumbnailOf(ctx.store, found.key, name, width);
          return reply
            .header('content-type', thumb.contentType)
            .header('x-content-type-options', 'nosniff')
            .header('cache-control', 'public, max-age=86400')
            .send(thumb.body);
        },
      );
    },
    { prefix: filesPrefix },
  );
}
