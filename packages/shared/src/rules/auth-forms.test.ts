import { describe, expect, it } from 'vitest';
import type { z } from 'zod/mini';
import {
  authFormMessages as m,
  forgotPasswordFormSchema,
  profileFormSchema,
  profileUpdateBody,
  registerFormSchema,
  resetPasswordFormSchema,
} from './auth-forms.js';

/** The message a form shows for each field: the first issue on that path. */
function fieldMessages(schema: z.ZodMiniType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  const out: Record<string, string> = {};
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    out[key] ??= issue.message;
  }
  return out;
}

const goodRegistration = {
  username: 'jdoe',
  fullname: 'Jane Doe',
  email: 'jane@example.org',
  password: 'longenough',
  confirmPassword: 'longenough',
};

describe('registration form (the five rules)', () => {
  it('accepts a good registration', () => {
    expect(registerFormSchema.safeParse(goodRegistration).success).toBe(true);
  });

  it('requires every field', () => {
    expect(
      fieldMessages(registerFormSchema, { username: '', fullname: '', email: '', password: '', confirmPassword: '' }),
    ).toEqual({ username: m.required, fullname: m.required, email: m.required, password: m.required });
  });

  it.each([
    ['abcdefghijklmnop', 'Username must be 15 characters or less'],
    ['jane doe', 'Username can not include whitespace'],
    ['jane\tdoe', 'Username can not include whitespace'],
    ['JaneDoe', 'Username can NOT include uppercase letters'],
  ])('username %j → %s', (username, message) => {
    expect(fieldMessages(registerFormSchema, { ...goodRegistration, username }).username).toBe(message);
  });

  it('allows a username of exactly 15 characters', () => {
    expect(fieldMessages(registerFormSchema, { ...goodRegistration, username: 'abcdefghijklmno' })).toEqual({});
  });

  it.each(['jane', 'jane@', '@example.org', 'jane@example', 'ja ne@example.org'])(
    'email %j → Invalid email address',
    (email) => {
      expect(fieldMessages(registerFormSchema, { ...goodRegistration, email }).email).toBe('Invalid email address');
    },
  );

  it.each([
    ['short', 'Password must be 8 characters or more'],
    ['has a space', 'Password can not include whitespace'],
  ])('password %j → %s', (password, message) => {
    expect(
      fieldMessages(registerFormSchema, { ...goodRegistration, password, confirmPassword: password }).password,
    ).toBe(message);
  });

  it('allows a password of exactly 8 characters', () => {
    expect(
      fieldMessages(registerFormSchema, { ...goodRegistration, password: '12345678', confirmPassword: '12345678' }),
    ).toEqual({});
  });

  it('confirm password must equal the password, also while other fields are wrong', () => {
    expect(fieldMessages(registerFormSchema, { ...goodRegistration, confirmPassword: 'different' })).toEqual({
      confirmPassword: 'Passwords must match',
    });
    expect(fieldMessages(registerFormSchema, { ...goodRegistration, username: '', confirmPassword: 'x' })).toEqual({
      username: m.required,
      confirmPassword: 'Passwords must match',
    });
  });
});

describe('profile form', () => {
  const profile = {
    username: 'jdoe',
    fullname: 'Jane Doe',
    email: 'jane@example.org',
    password: '',
    confirmPassword: '',
  };

  it('accepts an unchanged profile with blank passwords and a blank username', () => {
    expect(fieldMessages(profileFormSchema, profile)).toEqual({});
    expect(fieldMessages(profileFormSchema, { ...profile, username: '' })).toEqual({});
  });

  it.each([
    ['abcdefghijklmnop', 'Username must be 15 characters or less'],
    ['Jdoe', 'Username can NOT include uppercase letters'],
    ['j doe', 'Username can not include whitespace'],
  ])('username %j → %s', (username, message) => {
    expect(fieldMessages(profileFormSchema, { ...profile, username }).username).toBe(message);
  });

  it('full name and email are Required', () => {
    expect(fieldMessages(profileFormSchema, { ...profile, fullname: '', email: '' })).toEqual({
      fullname: m.required,
      email: m.required,
    });
  });

  it('a new password follows the registration and reset rules', () => {
    expect(fieldMessages(profileFormSchema, { ...profile, password: 'abcde', confirmPassword: 'abcde' })).toEqual({
      password: 'Password must be 8 characters or more',
    });
    expect(
      fieldMessages(profileFormSchema, { ...profile, password: 'abcd efgh', confirmPassword: 'abcd efgh' }),
    ).toEqual({ password: 'Password can not include whitespace' });
    expect(fieldMessages(profileFormSchema, { ...profile, password: 'abcdefgh', confirmPassword: 'abcdefgh' })).toEqual(
      {},
    );
  });

  it('passwords must match', () => {
    expect(fieldMessages(profileFormSchema, { ...profile, password: 'newpassword', confirmPassword: '' })).toEqual({
      confirmPassword: 'Passwords must match',
    });
  });

  it('sends only non-empty username, fullname and password', () => {
    expect(profileUpdateBody({ ...profile, username: '', password: '' })).toEqual({ fullname: 'Jane Doe' });
    expect(profileUpdateBody({ ...profile, password: 'newpassword', confirmPassword: 'newpassword' })).toEqual({
      username: 'jdoe',
      fullname: 'Jane Doe',
      password: 'newpassword',
    });
    expect(profileUpdateBody(profile)).not.toHaveProperty('email');
  });
});

describe('forgot password form', () => {
  it('email is Required', () => {
    expect(fieldMessages(forgotPasswordFormSchema, { email: '' })).toEqual({ email: 'Required' });
    expect(fieldMessages(forgotPasswordFormSchema, { email: 'jane@example.org' })).toEqual({});
  });
});

describe('reset password form', () => {
  it('uses the registration password rules and messages', () => {
    expect(fieldMessages(resetPasswordFormSchema, { password: '', confirmPassword: '' })).toEqual({
      password: m.required,
    });
    expect(fieldMessages(resetPasswordFormSchema, { password: 'short', confirmPassword: 'short' })).toEqual({
      password: 'Password must be 8 characters or more',
    });
    expect(fieldMessages(resetPasswordFormSchema, { password: 'with space', confirmPassword: 'with space' })).toEqual({
      password: 'Password can not include whitespace',
    });
  });
  it('the confirmation must match', () => {
    expect(fieldMessages(resetPasswordFormSchema, { password: 'longenough', confirmPassword: 'longenougH' })).toEqual({
      confirmPassword: 'Passwords must match',
    });
    expect(fieldMessages(resetPasswordFormSchema, { password: 'longenough', confirmPassword: 'longenough' })).toEqual(
      {},
    );
  });
});

describe('the server applies the registration form rules', () => {
  it('accepts and refuses the same passwords and addresses as the form', async () => {
    const { registerSchema, resetPasswordSchema } = await import('../schemas/auth.js');
    const cases: Array<[Partial<typeof goodRegistration>, boolean]> = [
      [{}, true],
      [{ password: '', confirmPassword: '' }, false],
      [{ password: 'short', confirmPassword: 'short' }, false],
      [{ password: '8 chars!', confirmPassword: '8 chars!' }, false],
      [{ password: '12345678', confirmPassword: '12345678' }, true],
      [{ email: 'not-an-address' }, false],
      [{ email: 'a@b' }, false],
      [{ email: 'a@b.org' }, true],
    ];
    for (const [change, valid] of cases) {
      const form = { ...goodRegistration, ...change };
      const { confirmPassword: _confirm, ...body } = form;
      const label = JSON.stringify(change);
      expect(registerFormSchema.safeParse(form).success, label).toBe(valid);
      expect(registerSchema.safeParse(body).success, label).toBe(valid);
      if (change.password !== undefined)
        expect(resetPasswordSchema.safeParse({ token: 't', password: body.password }).success, label).toBe(valid);
    }
  });
});
