import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { storedAreas, type FileStore } from './file-store.js';

/**
 * Moves an installation's files from one store to the other (`bathylog storage-migrate`,
 * docs/storage.md#moving-files-between-the-folder-and-a-bucket): every file of every area is
 * streamed across, its sha256 taken on the way, then read back from the target and checked.
 * Each verified file is written to a journal, so a run that stops (a cut link, Ctrl-C) resumes
 * where it stopped. The source is never changed: the operator removes it once the server runs on
 * the target.
 */

export interface MigrateReport {
  from: string;
  to: string;
  /** Files in the source. */
  files: number;
  /** Copied and verified in this run. */
  copied: number;
  /** Verified in an earlier run (journal), or found identical in the target. */
  alreadyThere: number;
  /** Found in the target with other content, and replaced. */
  replaced: number;
  bytesCopied: number;
  failed: Array<{ key: string; reason: string }>;
  seconds: number;
}

interface JournalEntry {
  key: string;
  size: number;
  sha256: string;
}

async function sha256Of(store: FileStore, key: string): Promise<string | null> {
  const body = await store.read(key);
  if (!body) return null;
  const hash = createHash('sha256');
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function readJournal(file: string): Promise<Map<string, JournalEntry>> {
  const out = new Map<string, JournalEntry>();
  const text = await readFile(file, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as JournalEntry;
      if (typeof entry.key === 'string' && typeof entry.sha256 === 'string') out.set(entry.key, entry);
    } catch {
      // A line cut by an interruption: that file is checked again.
    }
  }
  return out;
}

export async function migrateFiles(opts: {
  source: FileStore;
  target: FileStore;
  /** The journal of verified files (JSON lines); kept between runs. */
  journal: string;
  /** Told after each file (progress; a test stops a run here). */
  onFile?: (done: number, total: number, key: string) => void;
}): Promise<MigrateReport> {
  const started = Date.now();
  const { source, target } = opts;
  const report: MigrateReport = {
    from: source.description,
    to: target.description,
    files: 0,
    copied: 0,
    alreadyThere: 0,
    replaced: 0,
    bytesCopied: 0,
    failed: [],
    seconds: 0,
  };
  await mkdir(path.dirname(opts.journal), { recursive: true });
  const journal = await readJournal(opts.journal);
  const files = [];
  for (const area of storedAreas) files.push(...(await source.list(`${area}/`, { recursive: true })));
  report.files = files.length;
  let done = 0;
  for (const file of files) {
    try {
      const there = await target.stat(file.key);
      const known = journal.get(file.key);
      let replacing = false;
      if (there && known && known.size === file.size && there.size === file.size) {
        report.alreadyThere++;
      } else {
        const sourceHash = there && there.size === file.size ? await sha256Of(source, file.key) : null;
        if (sourceHash && sourceHash === (await sha256Of(target, file.key))) {
          report.alreadyThere++;
          await appendFile(opts.journal, JSON.stringify({ key: file.key, size: file.size, sha256: sourceHash }) + '\n');
        } else {
          replacing = there !== null;
          const sha256 = await copyOne(source, target, file.key);
          if (sha256 === null) continue; // gone from the source meanwhile
          await appendFile(opts.journal, JSON.stringify({ key: file.key, size: file.size, sha256 }) + '\n');
          if (replacing) report.replaced++;
          else report.copied++;
          report.bytesCopied += file.size;
        }
      }
    } catch (err) {
      report.failed.push({ key: file.key, reason: err instanceof Error ? err.message : String(err) });
    } finally {
      done++;
      opts.onFile?.(done, files.length, file.key);
    }
  }
  report.seconds = Math.round((Date.now() - started) / 100) / 10;
  return report;
}

/** Streams one file across with its sha256 taken on the way, then checks the target's copy by it. */
async function copyOne(source: FileStore, target: FileStore, key: string): Promise<string | null> {
  const body = await source.read(key);
  if (!body) return null;
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  body.on('error', (err) => hashing.destroy(err));
  await target.put(key, body.pipe(hashing));
  const sent = hash.digest('hex');
  const stored = await sha256Of(target, key);
  if (stored !== sent) {
    await target.delete(key).catch(() => undefined);
    throw new Error(
      `the copy does not match its checksum (${sent.slice(0, 12)}… sent, ${stored?.slice(0, 12)}… stored)`,
    );
  }
  return sent;
}
