import { z } from 'zod/mini';
import { isoTimestampSchema, objectIdSchema, queryIntSchema, queryListSchema } from './common.js';

/**
 * Event aux data (docs/wire.md#event-aux-data): what the inserters store next to an event (navigation,
 * frame grabs, CTD …). One record per event and data source.
 */

/**
 * One datum. `data_value` is a string or a number; `data_uom` is optional and may be empty
 * (the influx inserter sends `""`, which Sealog refused).
 */
export const auxDataItemSchema = z.strictObject({
  data_name: z.string().check(z.minLength(1)),
  data_value: z.union([z.string(), z.number()]),
  data_uom: z.optional(z.string()),
});
export type AuxDataItem = z.infer<typeof auxDataItemSchema>;

/**
 * Pictures attached to an event (Sealog 2.4 event attachments): one aux record of this source per
 * event, holding (camera_name, filename) pairs as frame grabs do, so image panels show them.
 */
export const eventAttachmentsDataSource = 'eventFileAttachments';
/** The camera name of every attachment: the image panel and gallery group them under it. */
export const eventAttachmentCameraName = 'Attachments';
export const maxEventAttachments = 5;

export const eventAuxDataSchema = z.object({
  id: z.string(),
  event_id: z.string(),
  data_source: z.string(),
  data_array: z.array(
    z.object({
      data_name: z.string(),
      data_value: z.union([z.string(), z.number()]),
      data_uom: z.optional(z.string()),
    }),
  ),
});
export type EventAuxData = z.infer<typeof eventAuxDataSchema>;

const dataSourceField = z.string().check(z.minLength(1), z.maxLength(100));

/** POST /event_aux_data: an upsert by (event_id, data_source). */
export const createEventAuxDataSchema = z.strictObject({
  id: z.optional(objectIdSchema),
  event_id: objectIdSchema,
  data_source: dataSourceField,
  data_array: z.optional(z.array(auxDataItemSchema)),
});
export type CreateEventAuxData = z.infer<typeof createEventAuxDataSchema>;

/** PATCH /event_aux_data/{id}: `data_array` items are merged by name, the new values winning. */
export const updateEventAuxDataSchema = z
  .strictObject({
    event_id: z.optional(objectIdSchema),
    data_source: z.optional(dataSourceField),
    data_array: z.optional(z.array(auxDataItemSchema)),
  })
  .check(
    z.refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key', path: ['eventAuxDataUpdate'] }),
  );
export type UpdateEventAuxData = z.infer<typeof updateEventAuxDataSchema>;

const auxFilterFields = {
  author: z.optional(queryListSchema),
  value: z.optional(queryListSchema),
  freetext: z.optional(queryListSchema),
  datasource: z.optional(queryListSchema),
  fulltext: z.optional(
    queryListSchema.check(
      z.describe(
        'Case-insensitive substring search over the data names and values of each aux record (Sealog 2.4.6): a record matches when any term is found and no `!`-prefixed term is. Comma-separated or repeated.',
      ),
    ),
  ),
  startTS: z.optional(isoTimestampSchema),
  stopTS: z.optional(isoTimestampSchema),
  offset: z.optional(queryIntSchema(0)),
  limit: z.optional(queryIntSchema(1)),
};

/** GET /event_aux_data. `format` is not accepted (Sealog); `fulltext` searches the records' data (Sealog 2.4.6). */
export const auxDataListQuerySchema = z.strictObject({
  eventID: z.optional(objectIdSchema),
  ...auxFilterFields,
});
export type AuxDataListQuery = z.infer<typeof auxDataListQuerySchema>;

/** GET /event_aux_data/bycruise/{id} and /bylowering/{id}. */
export const auxDataByRecordQuerySchema = z.strictObject(auxFilterFields);
export type AuxDataByRecordQuery = z.infer<typeof auxDataByRecordQuerySchema>;

/**
 * PATCH merge rule (fixes a Sealog defect, where stored values beat the new ones): the n-th
 * item named X in the request replaces the n-th stored item named X (so frame-grab pairs with
 * repeated names stay paired); stored items not named keep their place; new ones are appended.
 */
export function mergeAuxDataArrays(stored: readonly AuxDataItem[], incoming: readonly AuxDataItem[]): AuxDataItem[] {
  const byName = new Map<string, AuxDataItem[]>();
  for (const item of incoming) {
    const list = byName.get(item.data_name) ?? [];
    list.push(item);
    byName.set(item.data_name, list);
  }
  const storedCount = new Map<string, number>();
  const out: AuxDataItem[] = [];
  for (const item of stored) {
    const n = storedCount.get(item.data_name) ?? 0;
    storedCount.set(item.data_name, n + 1);
    out.push(byName.get(item.data_name)?.[n] ?? item);
  }
  const seen = new Map<string, number>();
  for (const item of incoming) {
    const k = seen.get(item.data_name) ?? 0;
    seen.set(item.data_name, k + 1);
    if (k >= (storedCount.get(item.data_name) ?? 0)) out.push(item);
  }
  return out;
}
