import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureServerBuild } from '../../../scripts/build-server.mjs';
import { repoRoot } from './server-process.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `bathylog <args>` as an operator would (bin/bathylog.mjs, its own process), on the compiled
 * CLI (built first when older than the sources), as after `npm start`.
 */
export async function runBathylog(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  await ensureServerBuild();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin/bathylog.mjs'), ...args], {
      cwd: repoRoot,
      env: { ...process.env, BATHYLOG_CONFIG: '', DATABASE_URL: '', DATABASE_SCHEMA: '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
