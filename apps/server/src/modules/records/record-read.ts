import type { FastifyReply } from 'fastify';
import { csvContentType } from '@bathylog/shared';

/** A cruise or lowering read: JSON, or CSV (`format=csv`) sent as a plain string. */
export function sendRecordRead(reply: FastifyReply, result: { kind: 'json' | 'csv'; body: unknown }) {
  if (result.kind === 'csv') return reply.type(csvContentType).send(result.body);
  return reply.send(result.body);
}
