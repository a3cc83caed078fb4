import { z } from 'zod/mini';

/** GET /sealog-server (Sealog's greeting, scripts probe it). */
export const welcomeSchema = z.object({ result: z.string() });

/** GET /sealog-server/server_time: the server's clock, ISO 8601 with milliseconds. */
export const serverTimeSchema = z.object({ ts: z.string() });
