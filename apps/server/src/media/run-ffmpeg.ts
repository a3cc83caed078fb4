import { spawn } from 'node:child_process';

/** A URL's query cut from ffmpeg's words: a signed URL's signature never reaches a message. */
function withoutQueries(line: string): string {
  return line.replace(/\b(https?:\/\/[^\s?#]*)[?#]\S*/gi, '$1');
}

/**
 * Runs one ffmpeg to its end: resolves on exit 0, rejects with `fail(message)` when it cannot start,
 * exits otherwise (`exitMessage` gets ffmpeg's last error line) or runs past `timeoutMs` (killed).
 * Only the first 2,000 characters of its stderr are kept.
 */
export function runFfmpeg(
  run: { command: string; args: readonly string[] },
  opts: { timeoutMs: number; fail: (message: string) => Error; exitMessage: (lastLine: string) => string },
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(run.command, run.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 2000) stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(opts.fail(`ffmpeg took longer than ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(opts.fail(`ffmpeg could not start: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(opts.fail(opts.exitMessage(withoutQueries(stderr.trim().split('\n').at(-1) ?? String(code)))));
    });
  });
}
