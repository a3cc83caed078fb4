/**
 * One table of error codes for server and client. The server throws `AppError(code, message)`;
 * the error handler answers `{statusCode, error, message}` (the hapi Boom shape Sealog clients read).
 */
export const errorCodes = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** A `Range` header past the end of a file. */
  RANGE_NOT_SATISFIABLE: 416,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  /** The disk holding the data (SQLite file, file store, or PostgreSQL's) is full. */
  INSUFFICIENT_STORAGE: 507,
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** HTTP reason phrases, as hapi writes them in the `error` field. */
export const statusPhrases: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

export function statusPhrase(status: number): string {
  return statusPhrases[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}

/** The wire body of every error. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorBody).statusCode === 'number' &&
    typeof (value as ErrorBody).message === 'string'
  );
}

/**
 * A Bathylog extension (docs/wire.md#empty-lists): a GET list read sent with this header set to
 * `200` answers an empty list `200 []` instead of Sealog's `404 No records found`. Stock clients
 * never send it and keep the 404 their scripts rely on.
 */
export const emptyListHeader = 'x-bathylog-empty-list';

/**
 * Header of a 401 that ends a browser session for a reason the body does not tell (it keeps
 * Sealog's "Invalid credentials"): `roles-changed` when an admin changed the user's roles since
 * the token was issued (docs/wire.md#checks-on-every-request).
 */
export const sessionEndHeader = 'x-bathylog-session-end';

/** Messages that clients and scripts match on; spelt as the Sealog ecosystem expects. */
export const messages = {
  noRecords: 'No records found',
  missingAuth: 'Missing authentication',
  invalidTokenFormat: 'Invalid token format',
  invalidToken: 'Invalid token',
  invalidCredentials: 'Invalid credentials',
  insufficientScope: 'Insufficient scope',
  /** A browser session past its lifetime (docs/security.md#browser-session); the login screen shows it. */
  sessionExpired: 'Your session has expired, please log in again',
  /** A session or token ended by "sign out everywhere" or a password change. */
  tokenRevoked: 'You have been signed out, please log in again',
  /** Shown on the login screen after an admin changed the user's roles (see `sessionEndHeader`). */
  rolesChanged: 'Your roles were changed by an administrator, please log in again',
  /** A device key revoked by an admin, or past its expiry. */
  deviceKeyRevoked: 'This device key has been revoked',
  deviceKeyExpired: 'This device key has expired',
  duplicateUser: 'duplicate uesr ID',
  duplicateEvent: 'duplicate event ID',
  duplicateTemplate: 'duplicate template',
  notFoundPage: 'Oops, 404 Page!',
  internal: 'An internal server error occurred',
  /** A write refused because the server's disk is full (507). */
  diskFull: 'The server cannot store this: its disk is full. Free some space on the server and try again.',
  /** Text PostgreSQL cannot take (a NUL character, \u0000): refused whatever the field (400). */
  unstorableText: 'Text may not contain the NUL character (\\u0000)',
} as const;
