import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { WsChannel, WsCustomVar, WsPayloads } from '@bathylog/shared';
import { useAuth } from '../lib/auth';
import { helloToken } from '../lib/session';
import { customVarKeys, mergeCustomVar, statusVarNames, type CustomVar } from './custom-vars';
import type { RealtimeClient, RealtimeState } from './realtime';

const RealtimeContext = createContext<RealtimeClient | null>(null);

/**
 * One websocket per tab for the whole app, opened once someone has logged in (the client's code
 * is fetched then: the login screen does not load it). A new login re-authenticates it; after a
 * reconnect the screens' queries are refetched, since whatever was published while offline was
 * missed.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { sessionKey } = useAuth();
  const queryClient = useQueryClient();
  const [client, setClient] = useState<RealtimeClient | null>(null);

  useEffect(() => {
    if (!sessionKey || client) return;
    let live = true;
    void import('./realtime').then(({ RealtimeClient }) => {
      if (live) setClient(new RealtimeClient({ getToken: helloToken }));
    });
    return () => {
      live = false;
    };
  }, [sessionKey, client]);

  useEffect(() => {
    if (!client) return;
    client.connect();
    const off = client.onReconnect(() => {
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'client_settings' });
    });
    return () => {
      off();
      client.close();
    };
  }, [client, queryClient]);

  // The client reads its credentials for each hello; a new session (another login) re-authenticates.
  const helloSession = useRef<string | null>(null);
  useEffect(() => {
    if (!client) return;
    if (helloSession.current === null) {
      helloSession.current = sessionKey;
      return;
    }
    if (helloSession.current === sessionKey) return;
    helloSession.current = sessionKey;
    client.reauthenticate();
  }, [client, sessionKey]);

  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

/** The app's realtime client; null outside RealtimeProvider (e.g. in isolated component tests). */
export function useRealtime(): RealtimeClient | null {
  return useContext(RealtimeContext);
}

const noop = () => () => undefined;

export function useRealtimeState(): RealtimeState {
  const client = useRealtime();
  const subscribe = useCallback((cb: () => void) => (client ? client.onState(cb) : noop()), [client]);
  return useSyncExternalStore(
    subscribe,
    () => client?.state ?? 'idle',
    () => 'idle' as RealtimeState,
  );
}

/**
 * Calls `handler` with each publication on a channel (docs/wire.md#channels) while mounted (and
 * `enabled`). The latest handler is used; re-rendering does not resubscribe.
 */
export function useSubscription<C extends WsChannel>(
  channel: C,
  handler: (payload: WsPayloads[C]) => void,
  opts: { enabled?: boolean } = {},
): void {
  const client = useRealtime();
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const enabled = opts.enabled ?? true;
  useEffect(() => {
    if (!client || !enabled) return;
    return client.subscribe(channel, (payload) => handlerRef.current(payload));
  }, [client, channel, enabled]);
}

/**
 * Invalidates the given query keys whenever one of the channels publishes. With `coalesceMs`, a
 * burst of pushes (an import, a busy dive) refetches once at its start and once at its end, at
 * most every `coalesceMs`, instead of once per push.
 */
export function useLiveInvalidation(
  channels: readonly WsChannel[],
  queryKeys: readonly QueryKey[],
  opts: { enabled?: boolean; coalesceMs?: number } = {},
): void {
  const client = useRealtime();
  const queryClient = useQueryClient();
  const keysRef = useRef(queryKeys);
  keysRef.current = queryKeys;
  const enabled = opts.enabled ?? true;
  const channelList = channels.join(',');
  const coalesceMs = opts.coalesceMs ?? 0;
  useEffect(() => {
    if (!client || !enabled) return;
    const invalidate = () => {
      for (const queryKey of keysRef.current) void queryClient.invalidateQueries({ queryKey });
    };
    let timer: ReturnType<typeof setTimeout> | null = null;
    let pending = false;
    const onPush = () => {
      if (coalesceMs <= 0) return invalidate();
      if (timer) {
        pending = true;
        return;
      }
      invalidate();
      const tick = () => {
        if (!pending) {
          timer = null;
          return;
        }
        pending = false;
        invalidate();
        timer = setTimeout(tick, coalesceMs);
      };
      timer = setTimeout(tick, coalesceMs);
    };
    const offs = (channelList.split(',') as WsChannel[]).map((channel) => client.subscribe(channel, onPush));
    return () => {
      offs.forEach((off) => off());
      if (timer) clearTimeout(timer);
    };
  }, [client, queryClient, channelList, enabled, coalesceMs]);
}

/**
 * Keeps the footer's custom vars (ASNAP, free space) live: each updateCustomVars push for one
 * of the three is written into the cached list (docs/screens.md#footer-status), no refetch needed.
 */
export function useLiveStatusVars(enabled: boolean): void {
  const queryClient = useQueryClient();
  useSubscription(
    'updateCustomVars',
    (update: WsCustomVar) => {
      const name = update.custom_var_name;
      if (!name || !(statusVarNames as readonly string[]).includes(name)) return;
      if (update.custom_var_value === undefined) {
        void queryClient.invalidateQueries({ queryKey: customVarKeys.list(statusVarNames) });
        return;
      }
      const value = update.custom_var_value;
      queryClient.setQueryData<CustomVar[]>(customVarKeys.list(statusVarNames), (list) =>
        mergeCustomVar(list, {
          ...(update.id ? { id: update.id } : {}),
          custom_var_name: name,
          custom_var_value: value,
        }),
      );
    },
    { enabled },
  );
}
