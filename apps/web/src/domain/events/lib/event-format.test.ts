import { describe, expect, it } from 'vitest';
import {
  auxDataCards,
  eventDetailsText,
  eventLineText,
  humanize,
  imageCards,
  imageUrl,
  missingImages,
} from './event-format';

const settings = {
  auxDataSortOrder: ['vehicleRealtimeNavData', 'vehicleRealtimeUSBLData'],
  auxDataSourceReplace: { vehicleRealtimeCTDData: 'Vehicle Realtime CTD Data' },
  excludeAuxDataSources: ['secretData'],
  imagesAuxDataSources: ['framegrabber'],
  imagePath: '/files/images',
};

const aux = (data_source: string, names: string[] = ['x']) => ({
  data_source,
  data_array: names.map((n, i) => ({ data_name: n, data_value: String(i), data_uom: i ? 'm' : undefined })),
});

describe('event line', () => {
  const event = {
    id: '1',
    ts: '2023-04-11T11:43:59.962Z',
    event_author: 'mt',
    event_value: 'CRUISE',
    event_free_text: 'END OF CRUISE',
    event_options: [
      { event_option_name: 'status', event_option_value: 'Other' },
      { event_option_name: 'dive_number', event_option_value: 'S0502' },
      { event_option_name: 'event_comment', event_option_value: 'never in the line' },
    ],
  };
  it('lists options and free text after the arrow, never the comment', () => {
    expect(eventDetailsText(event)).toBe('status: "Other", dive number: "S0502", free_text: "END OF CRUISE"');
    expect(eventLineText(event)).toBe(
      '2023-04-11T11:43:59.962Z <mt>: CRUISE --> status: "Other", dive number: "S0502", free_text: "END OF CRUISE"',
    );
  });
  it('has no arrow part for a bare event', () => {
    expect(eventLineText({ ...event, event_free_text: '', event_options: [] })).toBe(
      '2023-04-11T11:43:59.962Z <mt>: CRUISE',
    );
  });
});

describe('data cards', () => {
  it('humanises camelCase and snake_case names', () => {
    expect(humanize('vehicleRealtimeNavData')).toBe('Vehicle Realtime Nav Data');
    expect(humanize('sample_id')).toBe('Sample Id');
  });

  it('sorts listed sources first in list order, then the rest alphabetically; drops images and excluded sources', () => {
    const cards = auxDataCards(
      [
        aux('zetaData'),
        aux('vehicleRealtimeCTDData'),
        aux('framegrabber'),
        aux('vehicleRealtimeUSBLData'),
        aux('secretData'),
        aux('vehicleRealtimeNavData', ['latitude', 'depth']),
      ],
      settings,
    );
    expect(cards.map((c) => c.title)).toEqual([
      'Vehicle Realtime Nav Data',
      'Vehicle Realtime USBL Data',
      'Vehicle Realtime CTD Data',
      'Zeta Data',
    ]);
    expect(cards[0]!.rows).toEqual([
      { name: 'Latitude', value: '0' },
      { name: 'Depth', value: '1 m' },
    ]);
  });

  it('makes one image per (camera, path) pair, served by file name from the image path', () => {
    const images = imageCards(
      [
        {
          data_source: 'framegrabber',
          data_array: [
            { data_name: 'camera_name', data_value: 'Main Cam' },
            { data_name: 'filename', data_value: '/data/images/a.jpg' },
            { data_name: 'camera_name', data_value: 'Science Cam' },
            { data_name: 'filename', data_value: 'C:\\grabs\\b.jpg' },
          ],
        },
      ],
      settings,
    );
    expect(images).toEqual([
      { source: 'framegrabber', caption: 'Main Cam', url: '/sealog-server/files/images/a.jpg', fileName: 'a.jpg' },
      { source: 'framegrabber', caption: 'Science Cam', url: '/sealog-server/files/images/b.jpg', fileName: 'b.jpg' },
    ]);
    expect(imageUrl('x/y z.png', '/files/images/')).toBe('/sealog-server/files/images/y%20z.png');
  });

  it('expects pictures only of an event with an image record', () => {
    const nav = { data_source: 'vehicleRealtimeNavData', data_array: [{ data_name: 'latitude', data_value: '0' }] };
    const grab = (pairs: string[]) => ({
      data_source: 'framegrabber',
      data_array: pairs.map((v, i) => ({ data_name: i % 2 ? 'filename' : 'camera_name', data_value: v })),
    });
    expect(missingImages([], settings)).toBe(false);
    expect(missingImages([nav], settings)).toBe(false);
    expect(missingImages([nav, grab([])], settings)).toBe(true);
    expect(missingImages([grab(['Main Cam', 'a.jpg'])], settings)).toBe(false);
  });
});
