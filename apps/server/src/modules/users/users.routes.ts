import { z } from 'zod/mini';
import {
  apiTokenResponseSchema,
  createUserSchema,
  idParamsSchema,
  insertResultSchema,
  loginTokenResponseSchema,
  queryBooleanSchema,
  queryIntSchema,
  updateUserSchema,
  userSchema,
  userSortValues,
} from '@bathylog/shared';
import { noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { UsersService } from './users.service.js';
import { followUserChanges } from './user-cache.js';

const listQuery = z.strictObject({
  system_user: z.optional(queryBooleanSchema),
  offset: z.optional(queryIntSchema(0)),
  limit: z.optional(queryIntSchema(1)),
  sort: z.optional(z.enum(userSortValues)),
});

export function usersRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new UsersService(ctx);
  // The users other server processes change or revoke leave this process's user cache at once.
  followUserChanges(ctx.bus);
  const read = { auth: true, scopes: ['admin', 'read_users'] } as const;
  // Users are each server's own: no route here changes a record copied from a ship.
  const write = { auth: true, scopes: ['admin', 'write_users'], origin: 'none' } as const;
  const admin = { auth: true, scopes: ['admin'], origin: 'none' } as const;

  app.get(
    '/users',
    { config: read, schema: { querystring: listQuery, tags: ['users'], response: { 200: z.array(userSchema) } } },
    (req) => service.list(caller(req), req.query),
  );

  // No token: the WHOI client's login page lists the guest accounts before anyone signs in.
  app.get(
    '/users/guests',
    {
      schema: {
        tags: ['users'],
        response: { 200: z.array(z.object({ id: z.string(), username: z.string(), fullname: z.string() })) },
      },
    },
    () => service.listGuests(),
  );

  // Literal segments win over parameters, as in Sealog. Bulk deletes are admin-only
  // (docs/security.md#changing-and-deleting-events).
  app.delete(
    '/users/all',
    { config: admin, schema: { tags: ['users'], response: { 204: noContent } } },
    async (req, reply) => {
      await service.removeAllNonSystem(caller(req));
      return reply.code(204).send();
    },
  );

  app.get(
    '/users/:id',
    { config: read, schema: { params: idParamsSchema, tags: ['users'], response: { 200: userSchema } } },
    (req) => service.get(caller(req), req.params.id),
  );

  app.post(
    '/users',
    { config: write, schema: { body: createUserSchema, tags: ['users'], response: { 201: insertResultSchema } } },
    async (req, reply) => {
      const insertedId = await service.create(caller(req), req.body);
      return reply.code(201).send({ acknowledged: true, insertedId });
    },
  );

  app.patch(
    '/users/:id',
    {
      config: { auth: true, origin: 'none' },
      schema: { params: idParamsSchema, body: updateUserSchema, tags: ['users'], response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.update(caller(req), req.params.id, req.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/users/:id',
    { config: write, schema: { params: idParamsSchema, tags: ['users'], response: { 204: noContent } } },
    async (req, reply) => {
      await service.remove(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/users/:id/token',
    {
      config: { auth: true },
      schema: { params: idParamsSchema, tags: ['users'], response: { 200: apiTokenResponseSchema } },
    },
    async (req) => ({
      token: await service.token(caller(req), req.params.id),
    }),
  );

  app.post(
    '/users/:id/signOutEverywhere',
    {
      config: { auth: true, origin: 'none' },
      schema: { params: idParamsSchema, tags: ['users'], response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.signOutEverywhere(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/users/:id/loginToken',
    {
      config: { auth: true },
      schema: { params: idParamsSchema, tags: ['users'], response: { 200: loginTokenResponseSchema } },
    },
    async (req) => ({ loginToken: await service.loginToken(caller(req), req.params.id) }),
  );
}
