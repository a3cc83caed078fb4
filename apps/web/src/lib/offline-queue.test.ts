import { afterEach, describe, expect, it } from 'vitest';
import {
  MemoryQueueStorage,
  OfflineQueue,
  planDelete,
  planUpdate,
  type QueuedOp,
  type SendResult,
} from './offline-queue';

/** A pretend server: records what arrives, and can be cut off or refuse. */
function fakeServer() {
  const received: Array<{ kind: string; eventId: string; body?: Record<string, unknown> }> = [];
  const state = { down: false, refuse: null as null | ((op: QueuedOp) => string | null) };
  const send = async (op: QueuedOp): Promise<SendResult> => {
    await Promise.resolve();
    if (state.down) return { status: 'retry', message: 'Unable to connect to server' };
    const refusal = state.refuse?.(op);
    if (refusal) return { status: 'failed', message: refusal };
    received.push({ kind: op.kind, eventId: op.eventId, body: op.body });
    return { status: 'sent' };
  };
  return { received, state, send };
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const queues: OfflineQueue[] = [];
function makeQueue(storage: MemoryQueueStorage, send: (op: QueuedOp) => Promise<SendResult>) {
  const q = new OfflineQueue(storage, send, { retryBaseMs: 5, retryMaxMs: 20, channelName: `test-${Math.random()}` });
  queues.push(q);
  return q;
}

afterEach(() => {
  for (const q of queues.splice(0)) q.stop();
});

describe('OfflineQueue', () => {
  it('sends creates in the order they were queued and forgets them once sent', async () => {
    const server = fakeServer();
    const q = makeQueue(new MemoryQueueStorage(), server.send);
    await q.start();
    for (const id of ['a', 'b', 'c']) await q.enqueueCreate(id, { event_value: id });
    await until(() => server.received.length === 3, 'three sends');
    expect(server.received.map((r) => r.eventId)).toEqual(['a', 'b', 'c']);
    await until(() => q.getSnapshot().length === 0, 'an empty queue');
  });

  it('keeps everything while the server is unreachable and sends it, in order, once it is back', async () => {
    const server = fakeServer();
    server.state.down = true;
    const storage = new MemoryQueueStorage();
    const q = makeQueue(storage, server.send);
    await q.start();
    for (let i = 0; i < 20; i++) await q.enqueueCreate(`e${i}`, { event_value: 'X', ts: `t${i}` });
    await until(() => (q.getSnapshot()[0]?.attempts ?? 0) >= 2, 'retries');
    expect(q.getSnapshot()).toHaveLength(20);
    expect(server.received).toEqual([]);

    server.state.down = false;
    await until(() => server.received.length === 20, 'twenty sends');
    expect(server.received.map((r) => r.eventId)).toEqual(Array.from({ length: 20 }, (_, i) => `e${i}`));
    expect(server.received.map((r) => r.body?.ts)).toEqual(Array.from({ length: 20 }, (_, i) => `t${i}`));
  });

  it('survives a reload: a new queue over the same storage sends what the old one could not', async () => {
    const server = fakeServer();
    server.state.down = true;
    const storage = new MemoryQueueStorage();
    const first = makeQueue(storage, server.send);
    await first.start();
    await first.enqueueCreate('kept', { event_value: 'X' });
    first.stop();

    server.state.down = false;
    const second = makeQueue(storage, server.send);
    await second.start();
    expect(second.getSnapshot().map((op) => op.eventId)).toEqual(['kept']);
    await until(() => server.received.length === 1, 'the resend');
    expect(server.received[0]!.eventId).toBe('kept');
  });

  it('folds the options modal into a create that has not been sent, and a cancel removes it entirely', async () => {
    const server = fakeServer();
    server.state.down = true;
    const q = makeQueue(new MemoryQueueStorage(), server.send);
    await q.start();
    await q.enqueueCreate('x', { event_value: 'SAMPLE', event_options: [] });
    await q.enqueueCreate('y', { event_value: 'SAMPLE', event_options: [] });
    await until(() => q.getSnapshot().some((op) => op.attempts > 0), 'a failed attempt');
    // The first create was claimed by the flusher (it tried to send it): it is no longer merged into.
    await q.enqueueUpdate('x', { event_free_text: 'late' });
    await q.enqueueUpdate('y', { event_free_text: 'merged' });
    await q.enqueueCreate('z', { event_value: 'CANCELLED' });
    await q.enqueueDelete('z');

    const ops = q.getSnapshot();
    expect(ops.map((op) => [op.kind, op.eventId])).toEqual([
      ['create', 'x'],
      ['create', 'y'],
      ['update', 'x'],
    ]);
    expect(ops[1]!.body).toEqual({ event_value: 'SAMPLE', event_options: [], event_free_text: 'merged' });

    server.state.down = false;
    await until(() => server.received.length === 3, 'three sends');
    expect(server.received.map((r) => `${r.kind}:${r.eventId}`)).toEqual(['create:x', 'create:y', 'update:x']);
  });

  it('keeps a refused write as failed, goes on with the others, and drops it when discarded', async () => {
    const server = fakeServer();
    server.state.refuse = (op) => (op.eventId === 'bad' ? 'event_value is not allowed to be empty' : null);
    const q = makeQueue(new MemoryQueueStorage(), server.send);
    await q.start();
    await q.enqueueCreate('bad', { event_value: '' });
    await q.enqueueCreate('good', { event_value: 'OK' });
    await until(() => server.received.length === 1, 'the good one');
    const failed = q.getSnapshot();
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ eventId: 'bad', failed: 'event_value is not allowed to be empty' });
    await q.discard(failed[0]!.seq);
    expect(q.getSnapshot()).toEqual([]);
  });

  it('tells listeners about each sent operation', async () => {
    const server = fakeServer();
    const q = makeQueue(new MemoryQueueStorage(), server.send);
    const sent: string[] = [];
    q.onSent((op) => sent.push(op.eventId));
    await q.start();
    await q.enqueueCreate('one', {});
    await until(() => sent.length === 1, 'the sent notice');
    expect(sent).toEqual(['one']);
  });
});

describe('queue rules', () => {
  const base = { queuedAt: 0, attempts: 0 };
  it('appends an update after a claimed one, and a delete after a claimed create', () => {
    const ops: QueuedOp[] = [{ ...base, seq: 1, kind: 'create', eventId: 'e', body: {}, claimedAt: 5 }];
    expect(planUpdate(ops, 'e', { a: 1 }, 9)).toEqual([
      { type: 'add', op: { kind: 'update', eventId: 'e', body: { a: 1 }, queuedAt: 9, attempts: 0 } },
    ]);
    const withUpdate: QueuedOp[] = [...ops, { ...base, seq: 2, kind: 'update', eventId: 'e', body: { a: 1 } }];
    expect(planDelete(withUpdate, 'e', 9)).toEqual([
      { type: 'remove', seq: 2 },
      { type: 'add', op: { kind: 'delete', eventId: 'e', queuedAt: 9, attempts: 0 } },
    ]);
  });

  it('sends an attachment after its event, and drops unsent attachments of a deleted event', async () => {
    const server = fakeServer();
    const q = makeQueue(new MemoryQueueStorage(), server.send);
    const sent: string[] = [];
    q.onSent((op) => sent.push(`${op.kind} ${op.eventId}`));
    await q.enqueueCreate('pic', {});
    await q.enqueueAttach('pic', { fileName: 'a.png' });
    await q.start();
    await until(() => sent.length === 2, 'both sends');
    expect(sent).toEqual(['create pic', 'attach pic']);

    const ops: QueuedOp[] = [
      { ...base, seq: 1, kind: 'create', eventId: 'e', body: {}, claimedAt: 5 },
      { ...base, seq: 2, kind: 'attach', eventId: 'e', body: { fileName: 'a.png' } },
    ];
    expect(planDelete(ops, 'e', 9)).toEqual([
      { type: 'remove', seq: 2 },
      { type: 'add', op: { kind: 'delete', eventId: 'e', queuedAt: 9, attempts: 0 } },
    ]);
  });
});
