import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempImages } from '../../../test/aux-live.js';
import { frameGrabName, Limiter, writeFrameGrab } from './frame-grab.js';

describe('frame grabs', () => {
  const images = tempImages();
  afterAll(() => images.remove());

  it('are named as Sealog’s framegrab bots name them, from the event’s time in UTC', () => {
    expect(frameGrabName('SciCam_', Date.parse('2023-03-14T07:15:03.077Z'))).toBe('SciCam_20230314_071503077.jpg');
  });

  it('are written only as a plain file name inside the images folder', async () => {
    for (const name of ['../x.jpg', 'a/b.jpg', '.hidden.jpg'])
      await expect(writeFrameGrab(images.dir, name, new Uint8Array([0xff, 0xd8, 0xff]))).rejects.toThrow(
        'frame-grab name must be a plain file name',
      );
    expect(readdirSync(images.dir)).toEqual([]);
  });

  it('run at most `limit` at once; a waiting grab whose signal aborts never runs', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let most = 0;
    let ran = 0;
    const work = async () => {
      running++;
      ran++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 30));
      running--;
    };
    const gone = new AbortController();
    const all = [
      ...[1, 2, 3].map(() => limiter.run(new AbortController().signal, work)),
      limiter.run(gone.signal, work),
      limiter.run(new AbortController().signal, work),
    ];
    gone.abort(new Error('cancelled'));
    const results = await Promise.allSettled(all);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(most).toBe(2);
    expect(ran).toBe(4);
  });
});
