import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Mails the server wrote to <data>/outbox (no SMTP configured in tests), oldest first. */
export function outboxMails(app: { dataDir: string }): string[] {
  const dir = path.join(app.dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(path.join(dir, f), 'utf8'));
}
