import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage, isApiError, toQueryString } from './client';

describe('toQueryString (Sealog query conventions)', () => {
  it('drops null and undefined keys', () => {
    expect(toQueryString({ a: 'x', b: null, c: undefined })).toBe('?a=x');
    expect(toQueryString({})).toBe('');
  });
  it('repeats keys for arrays, trims elements and drops blanks', () => {
    expect(toQueryString({ value: [' !ASNAP ', '', 'CTD'], limit: 20 })).toBe('?value=%21ASNAP&value=CTD&limit=20');
  });
});

describe('ApiError', () => {
  it('carries the status and the message screens show', () => {
    const err = new ApiError(401, 'unknown user or bad password');
    expect(isApiError(err, 401)).toBe(true);
    expect(isApiError(err, 404)).toBe(false);
    expect(errorMessage(err)).toBe('unknown user or bad password');
    expect(new ApiError(0, 'Unable to connect to server').isNetworkError).toBe(true);
  });
});
