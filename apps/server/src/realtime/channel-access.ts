import { wsChannels, wsPathPrefix, type WsChannel } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import type { AuthContext } from '../plugins/auth.js';

/**
 * Who may receive what on the socket. The rule is the access module's
 * (modules/access/channel-access.ts); the app hands it to the socket server, so realtime/ imports
 * no module. `Visibility` is what a delivery filter needs to know about one publication.
 */
export interface ChannelAccess<Visibility = unknown> {
  maySubscribe(auth: AuthContext, channel: WsChannel): boolean;
  /** Looked up once per publication, not once per socket; undefined: no filter. */
  visibility(ctx: AppContext, channel: WsChannel, payload: unknown): Promise<Visibility | undefined>;
  mayReceive(
    auth: AuthContext,
    channel: WsChannel,
    visibility: Visibility | undefined,
    useAccessControl: boolean,
  ): boolean;
  /** The visibility of a publication whose lookup failed: admins only. */
  adminsOnly: Visibility;
}

const channelByPath = new Map<string, WsChannel>(wsChannels.map((c) => [`${wsPathPrefix}${c}`, c]));

/** The channel a subscription path names, or undefined for a path the server does not serve. */
export function channelForPath(path: string): WsChannel | undefined {
  return channelByPath.get(path);
}
