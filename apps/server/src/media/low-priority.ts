import { spawnSync } from 'node:child_process';

let prefix: string[] | null = null;

/** Whether `command args…` runs here and exits 0 (a tool missing, or refused in a container, does not). */
function works(command: string, args: string[]): boolean {
  try {
    return spawnSync(command, args, { stdio: 'ignore', timeout: 5000 }).status === 0;
  } catch {
    return false;
  }
}

/**
 * The wrapper that runs a background ffmpeg at the lowest CPU and disk priority
 * (docs/video.md#background-work): `nice -n 19`, and `ionice -c 3` (idle: disk time only when
 * nobody else wants it) where the system has it and allows it. Each is tried once; a missing
 * one is left out, so the command still runs, only at the normal priority.
 */
function lowPriorityPrefix(): string[] {
  if (prefix) return prefix;
  const out: string[] = [];
  if (process.platform !== 'win32' && works('ionice', ['-c', '3', 'true'])) out.push('ionice', '-c', '3');
  if (process.platform !== 'win32' && works('nice', ['-n', '19', 'true'])) out.push('nice', '-n', '19');
  prefix = out;
  return out;
}

/** `command args…` as run at low priority: the wrapper's command first when there is one. */
export function atLowPriority(command: string, args: readonly string[]): { command: string; args: string[] } {
  const [first, ...rest] = lowPriorityPrefix();
  return first ? { command: first, args: [...rest, command, ...args] } : { command, args: [...args] };
}
