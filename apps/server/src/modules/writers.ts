import type { ThreadWriters } from '../db/write-worker-thread.js';
import { eventCreateWriter, eventCreateWriterName } from './events/event-create-writer.js';

/** The group-commit writers the modules run on the SQLite write thread, by name (db/write-worker.ts). */
export const moduleWriters: ThreadWriters = {
  [eventCreateWriterName]: eventCreateWriter,
};
