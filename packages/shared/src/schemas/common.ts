import { z } from 'zod';
import { isObjectId } from '../ids.js';
import { parseIsoTimestamp, parseLooseTimestamp } from '../time.js';

/** A 24-hex record id (path params and body ids), lower-cased as MongoDB stores ObjectIds. */
export const objectIdSchema = z
  .string()
  .refine(isObjectId, { message: 'must be a 24-character hex id' })
  .transform((id) => id.toLowerCase());

export const idParamsSchema = z.strictObject({ id: objectIdSchema });
export type IdParams = z.infer<typeof idParamsSchema>;

/** An ISO-8601 timestamp, parsed to epoch milliseconds. */
export const isoTimestampSchema = z.string().transform((value, ctx) => {
  const ms = parseIsoTimestamp(value);
  if (ms === null) {
    ctx.addIssue({ code: 'custom', message: 'must be a valid ISO 8601 date' });
    return z.NEVER;
  }
  return ms;
});

/** startTS/stopTS query values: ISO, epoch ms, or any date text (Joi `date()`), to epoch ms. */
export const looseTimestampSchema = z.string().transform((value, ctx) => {
  const ms = parseLooseTimestamp(value);
  if (ms === null) {
    ctx.addIssue({ code: 'custom', message: 'must be a valid date' });
    return z.NEVER;
  }
  return ms;
});

/** Query booleans: `true`/`false` in any case (Python sends `True`). */
export const queryBooleanSchema = z
  .string()
  .regex(/^(true|false)$/i, { message: 'must be a boolean' })
  .transform((v) => v.toLowerCase() === 'true');

/** Query integers from decimal strings. */
export const queryIntSchema = (min: number) =>
  z.string().regex(/^\d+$/, { message: 'must be a number' }).transform(Number).pipe(z.number().int().min(min));

/** A query key that may be repeated: one string or many, always an array after parsing. */
export const queryListSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]));

/** Body booleans are real JSON booleans. */
export const insertResultSchema = z.object({ acknowledged: z.literal(true), insertedId: z.string() });
export type InsertResult = z.infer<typeof insertResultSchema>;
