import { spawn, type ChildProcess } from 'node:child_process';
import { loadPg } from '../../db/database.js';
import { executeOutputEndPrefix } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import { advisoryLockKey } from '../../db/leader-election.js';
import {
  displayCommand,
  isExportableId,
  recordEnvironment,
  splitCommandLine,
  substituteRecord,
} from './command-line.js';

export const commandRunningMessage = 'A command is already running.';
export const commandStartedMessage = 'Command is being executed.';

type Kind = 'cruise' | 'lowering';

/** Holds the one-command-at-a-time guard across processes sharing a PostgreSQL database. */
interface RunLock {
  release(): Promise<void>;
}

/**
 * External calls (docs/wire.md#external-calls): an admin starts the configured export command for a cruise or
 * a lowering. One command runs at a time (in this process, and across processes on PostgreSQL
 * through an advisory lock). The command is spawned without a shell; its output goes line by
 * line on the bus to the sockets that sent the nes request /ws/execute_output, first
 * "Executing <command>", last "Process exited with code: <n>". Unlike Sealog (defect 19) a
 * command that cannot start is reported, never a crash.
 */
export class ExternalCallsService {
  private child: ChildProcess | null = null;
  private busy = false;

  constructor(private readonly ctx: AppContext) {}

  get isRunning(): boolean {
    return this.busy;
  }

  async exportRecord(kind: Kind, uid: string): Promise<void> {
    const commandLine =
      kind === 'cruise' ? this.ctx.config.externalCalls.exportCruise : this.ctx.config.externalCalls.exportLowering;
    if (!commandLine || !commandLine.trim()) {
      throw new AppError('NOT_FOUND', `No ${kind} export command is configured on this server`);
    }
    const humanId = await this.humanId(kind, uid);
    if (humanId === undefined) throw new AppError('BAD_REQUEST', `No record ${kind} found for id: ${uid}`);
    if (!isExportableId(humanId)) {
      throw new AppError(
        'BAD_REQUEST',
        `The ${kind} id ${JSON.stringify(humanId)} cannot be passed to the export command: it must start with a letter or a digit and hold only letters, digits, spaces and _ . + -`,
      );
    }
    let words: string[];
    try {
      words = substituteRecord(splitCommandLine(commandLine), { id: humanId, uid });
    } catch (err) {
      throw new AppError('SERVICE_UNAVAILABLE', `The ${kind} export command is not valid: ${(err as Error).message}`);
    }
    await this.run(words, recordEnvironment(kind, { id: humanId, uid }));
  }

  private async humanId(kind: Kind, uid: string): Promise<string | undefined> {
    const db = this.ctx.database.db;
    if (kind === 'cruise') {
      return (await db.selectFrom('cruises').select('cruise_id').where('id', '=', uid).executeTakeFirst())?.cruise_id;
    }
    return (await db.selectFrom('lowerings').select('lowering_id').where('id', '=', uid).executeTakeFirst())
      ?.lowering_id;
  }

  private output(message: string): void {
    this.ctx.bus.publish(internalChannels.executeOutput, message);
  }

  private async run(words: string[], env: Record<string, string>): Promise<void> {
    if (this.busy) throw new AppError('CONFLICT', commandRunningMessage);
    this.busy = true;
    let lock: RunLock | null = null;
    try {
      lock = await this.acquire();
    } catch (err) {
      this.busy = false;
      throw err;
    }
    if (!lock) {
      this.busy = false;
      throw new AppError('CONFLICT', commandRunningMessage);
    }
    // The end is announced once the next command may start: a listener that starts another on
    // seeing it must not be told one is still running.
    const finish = async (code: string) => {
      this.child = null;
      await lock
        .release()
        .catch((err: unknown) => this.ctx.log.warn({ err }, 'could not release the external-call lock'));
      this.busy = false;
      this.output(`${executeOutputEndPrefix}${code}`);
    };

    const [program, ...args] = words as [string, ...string[]];
    this.output(`Executing ${displayCommand(words)}`);
    let child: ChildProcess;
    try {
      child = spawn(program, args, {
        shell: false,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (err) {
      this.output(`Could not start ${program}: ${(err as Error).message}`);
      await finish('-1');
      throw new AppError('SERVICE_UNAVAILABLE', `Could not start the export command: ${(err as Error).message}`);
    }
    this.child = child;
    const started = await new Promise<Error | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', (err) => resolve(err));
    });
    if (started) {
      this.output(`Could not start ${program}: ${started.message}`);
      await finish('-1');
      throw new AppError('SERVICE_UNAVAILABLE', `Could not start the export command: ${started.message}`);
    }
    child.on('error', (err) => this.ctx.log.warn({ err }, 'external call error'));
    const flushers = [child.stdout, child.stderr].map((stream) => {
      let partial = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const lines = (partial + chunk).split(/\r?\n/);
        partial = lines.pop() ?? '';
        for (const line of lines) this.output(line);
      });
      return () => {
        if (partial) this.output(partial);
        partial = '';
      };
    });
    child.once('close', (code, signal) => {
      for (const flush of flushers) flush();
      void finish(String(code ?? signal ?? -1));
    });
  }

  /** The run lock: always granted on SQLite (one process); an advisory lock on PostgreSQL. */
  private async acquire(): Promise<RunLock | null> {
    const database = this.ctx.database;
    if (database.dialect !== 'postgres' || !database.url) return { release: async () => undefined };
    const client = new (loadPg().Client)({ connectionString: database.url });
    client.on('error', (err) => this.ctx.log.warn({ err }, 'external-call lock connection lost'));
    try {
      await client.connect();
      const [ns, key] = advisoryLockKey('external-call', database.schema);
      const res = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [ns, key]);
      if (!res.rows[0]?.locked) {
        await client.end();
        return null;
      }
    } catch (err) {
      await client.end().catch(() => undefined);
      this.ctx.log.error({ err }, 'could not take the external-call lock');
      throw new AppError('SERVICE_UNAVAILABLE', 'database error');
    }
    // Ending the session releases the lock.
    return { release: () => client.end() };
  }

  /** Stops a running command (server shutdown). */
  stop(): void {
    this.child?.kill('SIGTERM');
  }
}
