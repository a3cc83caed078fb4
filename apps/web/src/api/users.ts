import { useQuery } from '@tanstack/react-query';
import { userSchema, type CreateUser, type UpdateUser, type User } from '@bathylog/shared';
import { z } from 'zod/mini';
import { api, getList } from './client';

/** User administration calls (docs/screens.md#users). */
export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
};

const userListSchema = z.array(userSchema);

/** Every user the caller may see (system users only for admins); 404 = none. */
export async function getUsers(signal?: AbortSignal): Promise<User[]> {
  return userListSchema.parse(await getList<User>('users', { signal }));
}

/** Answers the new user's id. */
export async function createUser(body: CreateUser | Record<string, unknown>): Promise<string> {
  const res = await api.post<{ insertedId: string }>('users', body);
  return res.insertedId;
}

export async function updateUser(id: string, body: UpdateUser): Promise<void> {
  await api.patch(`users/${id}`, body);
}

export async function deleteUser(id: string): Promise<void> {
  await api.delete(`users/${id}`);
}

/** Deletes every non-system user (never the caller, never admin/guest/pi). */
export async function deleteAllNonSystemUsers(): Promise<void> {
  await api.delete('users/all');
}

/** A user's JWT (admin). */
export async function getUserToken(id: string): Promise<string> {
  const res = await api.get<{ token: string }>(`users/${id}/token`);
  return res.token;
}

export function useUsers(opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => getUsers(signal),
    enabled: opts.enabled ?? true,
  });
}
