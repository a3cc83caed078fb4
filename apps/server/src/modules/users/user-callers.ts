import type { CallerStore } from '../../plugins/auth.js';
import { userCache } from './user-cache.js';
import { UsersRepository } from './users.repository.js';

/** The users authentication reads and the last-login mark it writes (plugins/auth.ts). */
export const userCallers: Pick<CallerStore, 'user' | 'cachedUser' | 'markLogin'> = {
  user: (db, id) => new UsersRepository(db).findForAuth(id),
  cachedUser: (db, id) => userCache.get(db, id),
  markLogin: (db, id, at) => new UsersRepository(db).update(id, { last_login: at }),
};
