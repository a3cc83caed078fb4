/**
 * The command line's light pieces: what `bathylog --help` and argument checks need, loaded without
 * the server (its commands load it when they run).
 */
/** What every command receives: the global options, parsed. */
export interface GlobalOptions {
  data?: string | undefined;
  config?: string | undefined;
}

/** A usage mistake: printed with the command's usage line, exit code 2. */
export class UsageError extends Error {}

/** A failure the operator can act on: printed as it is, exit code 1. */
export class CliError extends Error {}

export const kinds = ['cruises', 'lowerings', 'events', 'aux-data'] as const;
export type Kind = (typeof kinds)[number];

export function parseKind(value: string | undefined, what: string): Kind {
  if (!value || !(kinds as readonly string[]).includes(value)) {
    throw new UsageError(`${what} must be one of: ${kinds.join(', ')}${value ? ` (got "${value}")` : ''}`);
  }
  return value as Kind;
}

export type Values = Record<string, string | boolean | undefined>;

export const out = (line: string) => process.stdout.write(`${line}\n`);
export const err = (line: string) => process.stderr.write(`${line}\n`);
