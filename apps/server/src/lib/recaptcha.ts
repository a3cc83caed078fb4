import { AppError } from './app-error.js';

/** Verifies a reCAPTCHA token when a secret is configured; without one the field is ignored. */
export async function verifyRecaptcha(
  secret: string | null,
  response: string | null | undefined,
  remoteip: string,
): Promise<void> {
  if (!secret) return;
  let success = false;
  try {
    const url = new URL('https://www.google.com/recaptcha/api/siteverify');
    url.searchParams.set('secret', secret);
    url.searchParams.set('response', response ?? '');
    url.searchParams.set('remoteip', remoteip);
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    success = ((await res.json()) as { success?: boolean }).success === true;
  } catch {
    throw new AppError('SERVICE_UNAVAILABLE', 'reCaptcha error');
  }
  if (!success) throw new AppError('UNAUTHORIZED', 'reCaptcha failed');
}
