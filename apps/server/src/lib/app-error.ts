import { errorCodes, messages, statusPhrase, type ErrorBody, type ErrorCode } from '@bathylog/shared';

/**
 * The one error services throw. The error handler answers `{statusCode, error, message}`.
 * `error` defaults to the HTTP reason phrase; a few Sealog replies use their own (register, reset).
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly errorText: string;
  readonly headers: Record<string, string>;
  readonly attributes: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { error?: string; headers?: Record<string, string>; attributes?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = errorCodes[code];
    this.errorText = opts.error ?? statusPhrase(this.statusCode);
    this.headers = opts.headers ?? {};
    this.attributes = opts.attributes;
  }

  toBody(): ErrorBody & { attributes?: Record<string, string> } {
    return {
      statusCode: this.statusCode,
      error: this.errorText,
      message: this.message,
      ...(this.attributes ? { attributes: this.attributes } : {}),
    };
  }
}

/** A request that failed its schema; the message names the field (Joi style). */
export class ValidationError extends Error {
  readonly statusCode = 400;
  constructor(message: string) {
    super(message);
    this.name = 'ValidationError';
  }
}

export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);

/** Driver error codes meaning "the disk is full": SQLite, the file system, PostgreSQL (class 53100). */
const diskFullCodes = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', '53100']);

/**
 * PostgreSQL codes for text it cannot take: 22021 (a NUL byte, "invalid byte sequence for encoding
 * UTF8: 0x00", in a value or a query parameter) and 22P05 (untranslatable character).
 */
const unstorableTextCodes = new Set(['22021', '22P05']);

/** The driver error code of `err` or of an error it wraps, when it is one of `codes`. */
function driverCode(err: unknown, codes: ReadonlySet<string>): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && codes.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * A 507 AppError when `err` (or an error it wraps) says the disk is full, else null: an
 * unstorable write is answered with a message the user can act on, never a bare 500.
 */
export function diskFullError(err: unknown): AppError | null {
  return driverCode(err, diskFullCodes) ? new AppError('INSUFFICIENT_STORAGE', messages.diskFull) : null;
}

/**
 * A 400 AppError when the database refused the request's text itself (PostgreSQL and a NUL
 * character), else null: bad input, not a server fault. The write's transaction is rolled back.
 */
export function unstorableTextError(err: unknown): AppError | null {
  return driverCode(err, unstorableTextCodes) ? badRequest(messages.unstorableText) : null;
}
