import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReadingRequest } from '../src/aux-sources/source.js';

export { freePort } from './server-process.js';
export { waitUntil } from './ship-and-shore.js';

/** What a live source logs, kept for assertions (no line may carry a secret). */
export function recordingDeps() {
  const lines: string[] = [];
  const log = {
    warn: (o: object, m: string) => void lines.push(`${m} ${JSON.stringify(o)}`),
    info: (o: object, m: string) => void lines.push(`${m} ${JSON.stringify(o)}`),
  };
  return { deps: { log }, lines };
}

export function tempImages(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'aux-live-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A manager's request for one event at `at`, with Sealog's 20 s maximum age unless given. */
export function requestAt(at: number, keys: readonly string[], more: Partial<ReadingRequest> = {}): ReadingRequest {
  return {
    at,
    maxAgeMs: 20_000,
    keys,
    signal: new AbortController().signal,
    imagesDir: '/nonexistent',
    eventId: '64354800e74bc3fbf0b5608a',
    ...more,
  };
}

/** A peer process the test starts and stops (gpsfake, mosquitto, ffmpeg), its output kept for failures. */
export class Peer {
  readonly child: ChildProcess;
  output = '';

  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child.stdout?.on('data', (c: Buffer) => (this.output = (this.output + c.toString()).slice(-4000)));
    this.child.stderr?.on('data', (c: Buffer) => (this.output = (this.output + c.toString()).slice(-4000)));
  }

  /** Stops the peer and everything it started (gpsfake starts its own gpsd), and waits for it. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    try {
      process.kill(-this.child.pid!, 'SIGTERM');
    } catch {
      this.child.kill('SIGTERM');
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-this.child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, 3000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * A camera encoder without a snapshot URL: ffmpeg streaming a 320×240 test pattern at 10 frames/s, a key frame each
 * second, as MPEG-TS over UDP to the port.
 */
export function testPatternEncoder(ffmpeg: string, port: number): Peer {
  return new Peer(ffmpeg, [
    ...['-nostdin', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10'],
    ...['-c:v', 'mpeg2video', '-g', '10', '-f', 'mpegts', `udp://127.0.0.1:${port}?pkt_size=1316`],
  ]);
}
