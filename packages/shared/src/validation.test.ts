import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { configureZodMessages, formatZodError, pathLabel } from './validation.js';
import { createUserSchema, updateUserSchema } from './schemas/users.js';
import { forgotPasswordSchema, loginSchema, registerSchema } from './schemas/auth.js';
import { idParamsSchema, isoTimestampSchema, queryBooleanSchema, queryIntSchema } from './schemas/common.js';

// As the server and the CLI do (loadConfig): the messages zod writes itself are English.
configureZodMessages();

/** The Joi-style message a schema gives for `value`, or 'valid'. */
function message(schema: z.ZodMiniType, value: unknown): string {
  const result = schema.safeParse(value);
  return result.success ? 'valid' : formatZodError(result.error);
}

const user = {
  username: 'alice',
  fullname: 'Alice',
  email: 'alice@example.org',
  password: '',
  roles: ['event_logger'],
};

describe('formatZodError: Joi-style messages naming the field', () => {
  it('missing and empty fields', () => {
    expect(message(createUserSchema, { ...user, username: undefined })).toBe('"username" is required');
    expect(message(createUserSchema, { ...user, username: '' })).toBe('"username" is not allowed to be empty');
    expect(message(registerSchema, { username: 'a', fullname: 'b', password: 'c' })).toBe('"email" is required');
  });

  it('unknown keys', () => {
    expect(message(createUserSchema, { ...user, extra: 1 })).toBe('"extra" is not allowed');
    expect(message(updateUserSchema, { email: 'x@y.org' })).toBe('"email" is not allowed');
  });

  it('wrong types', () => {
    expect(message(createUserSchema, { ...user, system_user: 'yes' })).toBe('"system_user" must be a boolean');
    expect(message(createUserSchema, { ...user, roles: 'admin' })).toBe('"roles" must be of type array');
    expect(message(createUserSchema, 'text')).toBe('"value" must be of type object');
    expect(message(z.object({ n: z.number() }), { n: 'x' })).toBe('"n" must be a number');
    expect(message(z.object({ n: z.number().check(z.int()) }), { n: 1.5 })).toBe('"n" must be an integer');
  });

  it('lengths and sizes', () => {
    expect(message(createUserSchema, { ...user, username: 'x'.repeat(16) })).toBe(
      '"username" length must be less than or equal to 15 characters long',
    );
    expect(message(createUserSchema, { ...user, password: 'x'.repeat(51) })).toBe(
      '"password" length must be less than or equal to 50 characters long',
    );
    expect(message(z.object({ s: z.string().check(z.minLength(3)) }), { s: 'ab' })).toBe(
      '"s" length must be at least 3 characters long',
    );
    expect(message(loginSchema, { loginToken: 'short' })).toBe('"loginToken" length must be 20 characters long');
    expect(message(createUserSchema, { ...user, roles: [] })).toBe('"roles" must contain at least 1 items');
    expect(message(z.object({ a: z.array(z.string()).check(z.maxLength(1)) }), { a: ['x', 'y'] })).toBe(
      '"a" must contain less than or equal to 1 items',
    );
    expect(message(z.object({ n: z.number().check(z.maximum(5)) }), { n: 6 })).toBe(
      '"n" must be less than or equal to 5',
    );
  });

  it('array items are named with their index', () => {
    expect(message(createUserSchema, { ...user, roles: ['event_logger', ''] })).toBe(
      '"roles[1]" is not allowed to be empty',
    );
  });

  it('formats: email, uri, ids, timestamps', () => {
    expect(message(createUserSchema, { ...user, email: 'nope' })).toBe('"email" must be a valid email');
    expect(message(forgotPasswordSchema, { email: 'a@b.org', resetURL: 'not a url' })).toBe(
      '"resetURL" must be a valid uri',
    );
    expect(message(idParamsSchema, { id: 'abc' })).toBe('"id" must be a 24-character hex id');
    expect(message(idParamsSchema, { id: 'zz81f167212b348aed7fa9f5' })).toBe('"id" must be a 24-character hex id');
    expect(message(idParamsSchema, { id: '5981f167212b348aed7fa9f5' })).toBe('valid');
    expect(message(z.object({ ts: isoTimestampSchema }), { ts: 'junk' })).toBe('"ts" must be a valid ISO 8601 date');
  });

  it('enums list the allowed values', () => {
    expect(message(z.object({ sort: z.enum(['username', 'last_login']) }), { sort: 'email' })).toBe(
      '"sort" must be one of [username, last_login]',
    );
  });

  it('an update needs at least one key', () => {
    expect(message(updateUserSchema, {})).toBe('"value" must have at least 1 key');
  });

  it('login: either form, and extra keys are named', () => {
    expect(message(loginSchema, { username: 'a', password: 'b' })).toBe('valid');
    expect(message(loginSchema, { loginToken: 'a'.repeat(20) })).toBe('valid');
    expect(message(loginSchema, { username: 'a' })).toBe('"password" is required');
    expect(message(loginSchema, { username: 'a', password: 'b', x: 1 })).toBe('"x" is not allowed');
  });

  it('query values: integers with a minimum, booleans in any case', () => {
    const q = z.strictObject({ limit: z.optional(queryIntSchema(1)), hidden: z.optional(queryBooleanSchema) });
    expect(message(q, { limit: '0' })).toBe('"limit" must be greater than or equal to 1');
    expect(message(q, { limit: 'ten' })).toBe('"limit" must be a number');
    expect(message(q, { limit: '-3' })).toBe('"limit" must be greater than or equal to 1');
    const paged = z.strictObject({ offset: z.optional(queryIntSchema(0)) });
    expect(message(paged, { offset: '-1' })).toBe('"offset" must be zero or more');
    expect(message(paged, { offset: 'x' })).toBe('"offset" must be a number');
    expect(paged.parse({ offset: '0' })).toEqual({ offset: 0 });
    expect(message(q, { hidden: 'maybe' })).toBe('"hidden" must be a boolean');
    expect(q.parse({ limit: '10', hidden: 'True' })).toEqual({ limit: 10, hidden: true });
    expect(q.parse({ hidden: 'FALSE' })).toEqual({ hidden: false });
  });
});

describe('pathLabel', () => {
  it('joins keys with dots and indexes with brackets', () => {
    expect(pathLabel([])).toBe('value');
    expect(pathLabel(['a', 'b', 0, 'c'])).toBe('a.b[0].c');
  });
});
