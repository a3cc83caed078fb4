import { z } from 'zod/mini';
import { isoTimestampSchema, objectIdSchema } from './common.js';
import { auxDataItemSchema } from './event-aux-data.js';
import { eventOptionSchema } from './events.js';

/**
 * One event of a bulk import: the event export shape (docs/wire.md#event-exports, `GET /event_exports`), so a
 * cruise exported from one ship imports on another. `id` and `ts` are required (an import keeps
 * the event's identity and time); aux records carry no ids (exports leave them out). Other fields
 * of an export (`cruise_id`, `lowering_id` from add_record_ids) are ignored.
 */
export const importedEventSchema = z.object({
  id: objectIdSchema,
  ts: isoTimestampSchema,
  event_author: z.string().check(z.minLength(1), z.maxLength(100)),
  event_value: z.string().check(z.minLength(1), z.maxLength(100)),
  event_options: z._default(z.array(eventOptionSchema), []),
  event_free_text: z._default(z.string(), ''),
  aux_data: z
    ._default(
      z.array(
        z.object({
          data_source: z.string().check(z.minLength(1), z.maxLength(100)),
          data_array: z.array(auxDataItemSchema),
        }),
      ),
      [],
    )
    .check(
      z.refine((list) => new Set(list.map((a) => a.data_source)).size === list.length, {
        message: 'has the same data_source twice',
      }),
    ),
});
export type ImportedEvent = z.infer<typeof importedEventSchema>;
export type ImportedEventInput = z.input<typeof importedEventSchema>;

/** How far an import has come (sent as progress, and its result). */
export interface EventImportProgress {
  /** Events read from the input so far. */
  read: number;
  /** Events stored. */
  imported: number;
  /** Events whose id was already stored (left as they are: importing twice changes nothing). */
  skipped: number;
  /** Events refused (invalid); their first errors are in `errors`. */
  failed: number;
}

export interface EventImportResult extends EventImportProgress {
  /** The first refused events: their position in the input (0-based) and why. */
  errors: Array<{ index: number; message: string }>;
}
