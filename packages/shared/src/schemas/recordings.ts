import { z } from 'zod/mini';
import { isoTimestampSchema, objectIdSchema } from './common.js';

/**
 * Video recordings of a lowering (docs/video.md): per camera, each recording's UTC start and
 * duration, with one or more copies of it (master, proxy, HLS playlist). Duration, codec, frame
 * size and rate are read from the file by ffprobe, never taken from the caller.
 */
export const recordingCopyRoles = ['master', 'proxy', 'hls'] as const;
export type RecordingCopyRole = (typeof recordingCopyRoles)[number];

/** The aux-data source of frames grabbed from recordings (Sealog's camera_name / filename pairs). */
export const recordedFramegrabSource = 'recordedFramegrabberData';

/** A camera name: what frame-grab file names and URLs carry, so letters, digits, `_` and `-` only. */
export const cameraNameSchema = z
  .string()
  .check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/, { message: 'must be 1-40 letters, digits, _ or -' }));

/**
 * Where a copy lives: a path under the data folder (relative to it, or absolute inside it), or an
 * http(s) URL (an HLS playlist on a video server). URLs may not carry credentials.
 */
export const recordingUriSchema = z.string().check(z.minLength(1), z.maxLength(2048));

export const recordingCopyInputSchema = z.strictObject({
  uri: recordingUriSchema,
  role: z.enum(recordingCopyRoles),
});
export type RecordingCopyInput = z.infer<typeof recordingCopyInputSchema>;

/** A recording as registered: no duration, codec or size (ffprobe reads them). */
export const createRecordingSchema = z.strictObject({
  id: z.optional(objectIdSchema),
  camera: cameraNameSchema,
  start_ts: isoTimestampSchema,
  copies: z.array(recordingCopyInputSchema).check(z.minLength(1), z.maxLength(8)),
});
export type CreateRecording = z.infer<typeof createRecordingSchema>;

export const updateRecordingSchema = z.strictObject({
  camera: z.optional(cameraNameSchema),
  start_ts: z.optional(isoTimestampSchema),
  copies: z.optional(z.array(recordingCopyInputSchema).check(z.minLength(1), z.maxLength(8))),
});
export type UpdateRecording = z.infer<typeof updateRecordingSchema>;

/** An import: a JSON list of recordings, or CSV text with the columns camera,start_ts,uri,role. */
export const importRecordingsSchema = z.union([
  z.strictObject({ recordings: z.array(createRecordingSchema).check(z.minLength(1), z.maxLength(5000)) }),
  z.strictObject({ csv: z.string().check(z.minLength(1), z.maxLength(2_000_000)) }),
]);
export type ImportRecordings = z.infer<typeof importRecordingsSchema>;

export const recordingCopySchema = z.object({
  id: z.string(),
  role: z.enum(recordingCopyRoles),
  uri: z.string(),
  codec: z.nullable(z.string()),
  size_bytes: z.nullable(z.number()),
  width: z.nullable(z.number()),
  height: z.nullable(z.number()),
  frame_rate: z.nullable(z.number()),
  interlaced: z.boolean(),
  checksum: z.nullable(z.string()),
  /** On a shore: a copy the ship holds and the shore does not (the master stays on the ship). */
  on_ship_only: z.optional(z.boolean()),
});
export type RecordingCopy = z.infer<typeof recordingCopySchema>;

export const recordingSchema = z.object({
  id: z.string(),
  lowering_id: z.string(),
  camera: z.string(),
  start_ts: z.string(),
  stop_ts: z.string(),
  duration_ms: z.number(),
  copies: z.array(recordingCopySchema),
});
export type Recording = z.infer<typeof recordingSchema>;

export const importRecordingsResultSchema = z.object({
  created: z.number(),
  recordings: z.array(recordingSchema),
});

/** A camera's clock offset: how far its recorder's clock runs ahead of UTC (negative: behind). */
export const cameraOffsetSchema = z.object({ camera: z.string(), offset_ms: z.number() });
export type CameraOffset = z.infer<typeof cameraOffsetSchema>;
export const setCameraOffsetSchema = z.strictObject({
  offset_ms: z.number().check(z.int(), z.minimum(-86_400_000), z.maximum(86_400_000)),
});
export const cameraParamsSchema = z.strictObject({ id: objectIdSchema, camera: cameraNameSchema });

/** Where a moment is in one camera's video: the recording, the offset into it and a link that opens it there. */
export const videoLinkSchema = z.object({
  camera: z.string(),
  recording_id: z.string(),
  offset_ms: z.number(),
  /** The media URL with a media fragment (`#t=37.2`): the video at that moment. */
  url: z.string(),
});
export type VideoLink = z.infer<typeof videoLinkSchema>;

export const videoAtQuerySchema = z.strictObject({ ts: isoTimestampSchema });

export const recordingMediaParamsSchema = z.strictObject({ id: objectIdSchema, copy: objectIdSchema });
export const recordingMediaFileParamsSchema = z.strictObject({
  id: objectIdSchema,
  copy: objectIdSchema,
  name: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/, { message: 'must be a plain file name' })),
});
export const recordingMediaQuerySchema = z.strictObject({
  role: z.optional(z.enum(recordingCopyRoles)),
});

/** The result of grabbing an event's frames: per camera, the file, or why there is none. */
export const framegrabResultSchema = z.object({
  event_id: z.string(),
  state: z.enum(['grabbed', 'no_recording', 'failed', 'skipped']),
  message: z.optional(z.string()),
  frames: z.array(z.object({ camera: z.string(), filename: z.string() })),
});
export type FramegrabResult = z.infer<typeof framegrabResultSchema>;

/** `results=all`: every event's result; by default only the failed ones (a progress poll over a thin link stays small). */
export const framegrabJobQuerySchema = z.strictObject({ results: z.optional(z.enum(['all', 'failed'])) });

/** A lowering-wide frame job: every event without a frame gets one. */
export const framegrabJobSchema = z.object({
  id: z.string(),
  lowering_id: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  total: z.number(),
  done: z.number(),
  grabbed: z.number(),
  no_recording: z.number(),
  failed: z.number(),
  created_at: z.string(),
  finished_at: z.nullable(z.string()),
  results: z.array(framegrabResultSchema),
});
export type FramegrabJob = z.infer<typeof framegrabJobSchema>;
