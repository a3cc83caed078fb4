import type { ChannelBus } from '../../realtime/bus.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import type { UserRecord } from './users.repository.js';

/**
 * Users as authentication reads them, kept for a moment (docs/performance.md#per-request: re-reading the caller for
 * every request was a third of a small GET). Every write to a user goes through
 * UsersRepository, which drops the user from here, so a changed role, a disabled account or a
 * revocation takes effect on the next request. Another process's changes (PostgreSQL with several
 * servers) arrive on the bus, which carries every change of a user (`updateUsers`) and every
 * revocation (`revoked`): each process drops the user when the message arrives
 * (`followUserChanges`). A read that began within `lifetimeMs` of a change is not kept (on
 * PostgreSQL it may have seen the row before the change's commit), and an entry lives
 * `lifetimeMs` at most, which bounds how long a change made by hand in the database, or one whose
 * message was lost with the bus connection, can go unseen.
 */
export const userCacheLifetimeMs = 1000;
const maxEntries = 5000;

interface Entry {
  /** The database the user was read from (tests run many databases in one process). */
  source: object;
  user: UserRecord;
  at: number;
}

const entries = new Map<string, Entry>();
const changedAt = new Map<string, number>();
/** Reads under way: callers missing the same user at once share one query (no burst of reads when an entry expires under load). */
const reading = new Map<string, { source: object; read: Promise<UserRecord | undefined> }>();

const copy = (user: UserRecord): UserRecord => ({ ...user, roles: [...user.roles] });

export const userCache = {
  get(source: object, id: string): UserRecord | undefined {
    const entry = entries.get(id);
    if (!entry || entry.source !== source) return undefined;
    if (Date.now() - entry.at > userCacheLifetimeMs) {
      entries.delete(id);
      return undefined;
    }
    return copy(entry.user);
  },

  /**
   * The user from the cache, or from `read` (and kept). A caller arriving while a read of the same
   * user is under way shares it, unless the user changed since that read began.
   */
  async load(source: object, id: string, read: () => Promise<UserRecord | undefined>): Promise<UserRecord | undefined> {
    const cached = this.get(source, id);
    if (cached) return cached;
    let pending = reading.get(id);
    if (!pending || pending.source !== source) {
      const readAt = Date.now();
      const promise = read().then((user) => {
        if (user) this.set(source, user, readAt);
        return user;
      });
      pending = { source, read: promise };
      reading.set(id, pending);
      const settled = () => {
        if (reading.get(id)?.read === promise) reading.delete(id);
      };
      promise.then(settled, settled);
    }
    const user = await pending.read;
    return user && copy(user);
  },

  /** Keeps a user read at `readAt` (when the query was sent), unless it changed since shortly before. */
  set(source: object, user: UserRecord, readAt: number): void {
    const changed = changedAt.get(user.id);
    if (changed !== undefined && readAt - changed < userCacheLifetimeMs) return;
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(user.id, { source, user: copy(user), at: readAt });
  },

  /** A user changed (or went): forget it, and keep no read of it for a moment. */
  invalidate(ids: readonly string[]): void {
    const now = Date.now();
    for (const id of ids) {
      entries.delete(id);
      reading.delete(id);
      changedAt.delete(id);
      changedAt.set(id, now);
    }
    // Changes older than the lifetime no longer matter.
    for (const [id, at] of changedAt) {
      if (now - at < userCacheLifetimeMs) break;
      changedAt.delete(id);
    }
  },

  clear(): void {
    entries.clear();
    changedAt.clear();
    reading.clear();
  },
};

/**
 * Drops a user from the cache when the bus says it changed or its tokens were revoked: the changes
 * made through another server process (PostgreSQL with several servers) take effect here as soon
 * as their message arrives. Returns the unsubscribe.
 */
export function followUserChanges(bus: ChannelBus): () => void {
  const offChanged = bus.subscribe('updateUsers', (change) => userCache.invalidate([change.id]));
  const offRevoked = bus.subscribe(internalChannels.revoked, (target) => {
    if ('userId' in target) userCache.invalidate([target.userId]);
  });
  return () => {
    offChanged();
    offRevoked();
  };
}
