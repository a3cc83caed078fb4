import { z } from 'zod/mini';

/** GET /storage/status (admins): where files are kept and whether the store answers now. */
export const storageStatusSchema = z.object({
  /** `local` (the data folder) or `s3` (an S3-compatible bucket). */
  backend: z.enum(['local', 's3']),
  /** The folder, or `s3://bucket/prefix` (never the credentials). */
  location: z.string(),
  reachable: z.boolean(),
  /** Why it is not, when it is not. */
  message: z.nullable(z.string()),
});
export type StorageStatus = z.infer<typeof storageStatusSchema>;

/**
 * GET /health (no token; for load balancers and monitors): 200 while the database answers, so
 * events are taken; `files` says whether the file store answers too. 503 when the database does not.
 */
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  files: z.enum(['ok', 'unavailable']),
});
export type Health = z.infer<typeof healthSchema>;
