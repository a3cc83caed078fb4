import { describe, expect, it } from 'vitest';
import { galleryTabs, pageKeepingFirst } from './gallery';

const record = (eventId: string, ...pairs: Array<[string, string]>) => ({
  id: `aux-${eventId}`,
  event_id: eventId,
  data_source: 'vehicleRealtimeFramegrabberData',
  data_array: pairs.flatMap(([camera, path]) => [
    { data_name: 'camera_name', data_value: camera },
    { data_name: 'filename', data_value: path },
  ]),
});

describe('gallery', () => {
  it('groups images by camera name in first-seen order, thumbnails beside the originals', () => {
    const tabs = galleryTabs(
      [record('e1', ['Down', '/x/d1.jpg'], ['Main', '/x/m1.jpg']), record('e2', ['Main', '/x/m2.jpg'])],
      '/files/images',
    );
    expect(tabs.map((t) => [t.camera, t.images.map((i) => [i.eventId, i.fileName])])).toEqual([
      ['Down', [['e1', 'd1.jpg']]],
      [
        'Main',
        [
          ['e1', 'm1.jpg'],
          ['e2', 'm2.jpg'],
        ],
      ],
    ]);
    expect(tabs[0]!.images[0]).toMatchObject({
      url: '/sealog-server/files/images/d1.jpg',
      thumbnail: '/sealog-server/files/images/d1.jpg?w=320',
    });
  });

  it('a new page size keeps the first visible image on the page shown', () => {
    expect(pageKeepingFirst(3, 16, 32)).toBe(2); // image 33 → page 2 of 32
    expect(pageKeepingFirst(2, 32, 16)).toBe(3); // image 33 → page 3 of 16
    expect(pageKeepingFirst(1, 16, 80)).toBe(1);
    expect(pageKeepingFirst(6, 16, 48)).toBe(2); // image 81 → page 2 of 48
  });
});
