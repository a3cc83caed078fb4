import { z } from 'zod/mini';
import { isObjectId } from '../ids.js';
import { parseIsoTimestamp, parseLooseTimestamp } from '../time.js';

/** A 24-hex record id (path params and body ids), lower-cased as MongoDB stores ObjectIds. */
export const objectIdSchema = z.pipe(
  z.string().check(z.refine(isObjectId, { message: 'must be a 24-character hex id' })),
  z.transform((id: string) => id.toLowerCase()),
);

export const idParamsSchema = z.strictObject({ id: objectIdSchema });
export type IdParams = z.infer<typeof idParamsSchema>;

/** A text parsed to epoch milliseconds by `parse`; text it cannot read fails with `message`. */
const timestampSchema = (parse: (value: string) => number | null, message: string) =>
  z.pipe(
    z.string(),
    z.transform((value: string, ctx) => {
      const ms = parse(value);
      if (ms === null) {
        ctx.issues.push({ code: 'custom', message, input: value });
        return z.NEVER;
      }
      return ms;
    }),
  );

/** An ISO-8601 timestamp, parsed to epoch milliseconds. */
export const isoTimestampSchema = timestampSchema(parseIsoTimestamp, 'must be a valid ISO 8601 date');

/** startTS/stopTS query values: ISO, epoch ms, or any date text (Joi `date()`), to epoch ms. */
export const looseTimestampSchema = timestampSchema(parseLooseTimestamp, 'must be a valid date');

/** Query booleans: `true`/`false` in any case (Python sends `True`). */
export const queryBooleanSchema = z.pipe(
  z.string().check(z.regex(/^(true|false)$/i, { message: 'must be a boolean' })),
  z.transform((v: string) => v.toLowerCase() === 'true'),
);

/** Query integers from decimal strings. */
export const queryIntSchema = (min: number) =>
  z.pipe(
    // A minus sign still reads as a number, so `offset=-1` is told its bound, not that it is no number.
    z.pipe(z.string().check(z.regex(/^-?\d+$/, { message: 'must be a number' })), z.transform(Number)),
    z
      .number()
      .check(
        z.int(),
        min === 0 ? z.refine((n: number) => n >= 0, { message: 'must be zero or more' }) : z.minimum(min),
      ),
  );

/** A query key that may be repeated: one string or many, always an array after parsing. */
export const queryListSchema = z.pipe(
  z.union([z.string(), z.array(z.string())]),
  z.transform((v: string | string[]) => (Array.isArray(v) ? v : [v])),
);

/** Body booleans are real JSON booleans. */
export const insertResultSchema = z.object({ acknowledged: z.literal(true), insertedId: z.string() });
export type InsertResult = z.infer<typeof insertResultSchema>;

/** The body of every error answer (4xx, 5xx); 401s carry hapi's `attributes: {error}` as Sealog's did. */
export const errorBodySchema = z.object({
  statusCode: z.number(),
  error: z.string(),
  message: z.string(),
  attributes: z.optional(z.record(z.string(), z.string())),
});

/** `{message}`: answers that only say what happened (external calls, the restricted probe). */
export const messageSchema = z.object({ message: z.string() });
