/**
 * Entry of the SQLite write thread (db/write-worker.ts starts it): the thread loop of db/ with the
 * writers the modules register (modules/writers.ts).
 */
import { serveWriteThread } from './db/write-worker-thread.js';
import { moduleWriters } from './modules/writers.js';

serveWriteThread(moduleWriters);
