import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ForgotPassword, LoginResponse, Register, ResetPassword, UpdateProfile, User } from '@bathylog/shared';
import { api } from './client';

/** Auth routes (docs/wire.md#auth). Login/register/forgot/reset are public calls. */
export const authKeys = {
  all: ['auth'] as const,
  profile: (sessionKey: string | null) => [...authKeys.all, 'profile', sessionKey] as const,
};

export type Profile = User;

export type LoginInput =
  { username: string; password: string; reCaptcha?: string | null } | { loginToken: string; reCaptcha?: string | null };

/*
 * The answers below are checked with their zod schemas, loaded beside the request (in parallel, so
 * no extra round trip): the login screen's first load carries no validation library.
 */

export async function login(input: LoginInput): Promise<LoginResponse> {
  // Usernames are stored lower case; users type them any way.
  const body = 'username' in input ? { ...input, username: input.username.toLowerCase() } : input;
  const [raw, { loginResponseSchema }] = await Promise.all([
    api.post('auth/login', body, { auth: false }),
    import('@bathylog/shared/schemas/auth'),
  ]);
  return loginResponseSchema.parse(raw);
}

/** Ends the browser session: the server clears its HttpOnly cookie. */
export async function logout(): Promise<void> {
  await api.post('auth/logout', undefined, { auth: false });
}

export async function register(input: Register): Promise<void> {
  await api.post('auth/register', input, { auth: false });
}

export async function forgotPassword(input: ForgotPassword): Promise<string> {
  const res = await api.post<{ message?: string }>('auth/forgotPassword', input, { auth: false });
  return res?.message ?? '';
}

export async function resetPassword(input: ResetPassword): Promise<void> {
  await api.patch('auth/resetPassword', input, { auth: false });
}

export async function validateToken(signal?: AbortSignal): Promise<void> {
  await api.get('auth/validate', { signal });
}

export async function getProfile(signal?: AbortSignal): Promise<Profile> {
  const [raw, { userSchema }] = await Promise.all([
    api.get('auth/profile', { signal }),
    import('@bathylog/shared/schemas/users'),
  ]);
  return userSchema.parse(raw);
}

export async function updateProfile(input: UpdateProfile): Promise<void> {
  await api.patch('auth/profile', input);
}

/** A freshly signed token for the caller (GET auth/profile/token). */
export async function getProfileToken(): Promise<string> {
  const res = await api.get<{ token: string }>('auth/profile/token');
  return res.token;
}

/** The profile query, shared by useProfileQuery and the first screen's prefetch (app/first-screen.ts). */
export function profileQuery(sessionKey: string | null) {
  return queryOptions({
    queryKey: authKeys.profile(sessionKey),
    queryFn: ({ signal }) => getProfile(signal),
    staleTime: 60_000,
    retry: false,
  });
}

export function useProfileQuery(sessionKey: string | null) {
  return useQuery({
    ...profileQuery(sessionKey),
    enabled: !!sessionKey,
    // A new login keeps showing the profile while it is read again; a login as someone else
    // clears the cache first (lib/auth.tsx), so nothing of another user shows.
    placeholderData: keepPreviousData,
  });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
