import { z } from 'zod/mini';

/** GET /sealog-server (Sealog's greeting, scripts probe it). */
export const welcomeSchema = z.object({ result: z.string() });

/** GET /sealog-server/server_time: the server's clock, ISO 8601 with milliseconds. */
export const serverTimeSchema = z.object({ ts: z.string() });

/**
 * GET /sealog-server/api/v1/health: whether this server process can serve (a balancer's health
 * check, docs/deployment.md#health-checks). Names no address, version or secret.
 */
export const healthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok') });
export type Health = z.infer<typeof healthSchema>;
