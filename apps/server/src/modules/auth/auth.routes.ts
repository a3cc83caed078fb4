import {
  apiTokenResponseSchema,
  forgotPasswordResponseSchema,
  forgotPasswordSchema,
  insertResultSchema,
  loginResponseSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  updateProfileSchema,
  userSchema,
  validateResponseSchema,
} from '@bathylog/shared';
import { noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { UsersService } from '../users/users.service.js';
import { AuthService } from './auth.service.js';
import { clearSessionCookies, setSessionCookies } from '../../plugins/session-cookie.js';

export function authRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new AuthService(ctx);
  const users = new UsersService(ctx);
  const tags = ['auth'];
  // Unauthenticated changes name their route in the audit trail themselves.
  const routeOf = (req: { method: string; routeOptions: { url?: string | undefined }; url: string }) =>
    `${req.method} ${req.routeOptions.url ?? req.url}`;

  app.post(
    '/auth/register',
    { config: { origin: 'none' }, schema: { body: registerSchema, tags, response: { 201: insertResultSchema } } },
    async (req, reply) => {
      const insertedId = await service.register(req.body, req.ip, routeOf(req));
      return reply.code(201).send({ acknowledged: true, insertedId });
    },
  );

  // The token is in the body as in Sealog (scripts read it there); a browser keeps it only in the
  // HttpOnly cookie set here.
  app.post(
    '/auth/login',
    { config: { origin: 'none' }, schema: { body: loginSchema, tags, response: { 200: loginResponseSchema } } },
    async (req, reply) => {
      const session = await service.login(req.body, req.ip, routeOf(req));
      setSessionCookies(req, reply, ctx.config, session);
      return session;
    },
  );

  // Ends the browser session: the cookies go. Tokens held elsewhere stay valid (sign out everywhere
  // ends those).
  app.post(
    '/auth/logout',
    { config: { origin: 'none' }, schema: { tags, response: { 204: noContent } } },
    async (req, reply) => {
      clearSessionCookies(req, reply, ctx.config);
      return reply.code(204).send();
    },
  );

  app.get(
    '/auth/validate',
    { config: { auth: true }, schema: { tags, response: { 200: validateResponseSchema } } },
    async () => ({ status: 'valid' }),
  );

  app.post(
    '/auth/forgotPassword',
    {
      config: { origin: 'none' },
      schema: { body: forgotPasswordSchema, tags, response: { 200: forgotPasswordResponseSchema } },
    },
    async (req) => ({
      statusCode: 200,
      message: await service.forgotPassword(req.body, req.ip),
    }),
  );

  app.patch(
    '/auth/resetPassword',
    { config: { origin: 'none' }, schema: { body: resetPasswordSchema, tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.resetPassword(req.body, req.ip, routeOf(req));
      return reply.code(204).send();
    },
  );

  app.get('/auth/profile', { config: { auth: true }, schema: { tags, response: { 200: userSchema } } }, async (req) =>
    service.profile(caller(req)),
  );

  app.patch(
    '/auth/profile',
    {
      config: { auth: true, origin: 'none' },
      schema: { body: updateProfileSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.updateProfile(caller(req), req.body);
      return reply.code(204).send();
    },
  );

  app.get(
    '/auth/profile/token',
    { config: { auth: true }, schema: { tags, response: { 200: apiTokenResponseSchema } } },
    async (req) => ({
      token: await service.profileToken(caller(req)),
    }),
  );

  // Sign out everywhere (docs/security.md#browser-session): every session and API token of the
  // caller, this one included.
  app.post(
    '/auth/signOutEverywhere',
    { config: { auth: true, origin: 'none' }, schema: { tags, response: { 204: noContent } } },
    async (req, reply) => {
      const auth = caller(req);
      await users.signOutEverywhere(auth, auth.user.id);
      return reply.code(204).send();
    },
  );
}
