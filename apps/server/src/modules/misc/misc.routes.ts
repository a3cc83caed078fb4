import { welcomeSchema, serverTimeSchema, messageSchema, clientSettingsSchema } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import type { ApiInstance } from '../../plugins/types.js';

/**
 * Routes under /sealog-server outside the API (docs/wire.md#transport-and-url-layout), and the
 * client's runtime settings.
 */
export function miscRoutes(app: ApiInstance, ctx: AppContext): void {
  const tags = ['misc'];
  app.get('/sealog-server', { schema: { tags, response: { 200: welcomeSchema } } }, async () => ({
    result: 'Welcome to sealog-server!',
  }));
  app.get('/sealog-server/server_time', { schema: { tags, response: { 200: serverTimeSchema } } }, async () => ({
    ts: new Date().toISOString(),
  }));
  app.get(
    '/sealog-server/restricted',
    { config: { auth: true }, schema: { tags, response: { 200: messageSchema } } },
    async () => ({
      message: 'Ok, You are authorized.',
    }),
  );
  app.get(
    '/sealog-server/client_settings',
    { schema: { tags, response: { 200: clientSettingsSchema } } },
    async () => ctx.config.client,
  );
}
