import { z } from 'zod';

/**
 * Runtime settings the server hands the client at start (GET /sealog-server/client_settings),
 * so one client build serves every vessel. Seeds 000 §9, client-behaviour.md §4.
 */
export const milestoneSchema = z.strictObject({ name: z.string().optional(), label: z.string() });

export const tileLayerSchema = z.strictObject({
  name: z.string(),
  url: z.string(),
  attribution: z.string().default(''),
  default: z.boolean().optional(),
  wms: z.boolean().optional(),
  layers: z.string().optional(),
  transparent: z.boolean().optional(),
  tms: z.boolean().optional(),
  zoomOffset: z.number().optional(),
  maxNativeZoom: z.number().optional(),
});
export type TileLayer = z.infer<typeof tileLayerSchema>;

const nameList = z.tuple([z.string().min(1), z.string().min(1)]);

export const clientSettingsSchema = z.strictObject({
  headerTitle: z.string().default('Bathylog'),
  loginScreenText: z.string().default('Bathylog: event logging and dive review for research vessels.'),
  loginImage: z.string().nullable().default(null),
  mainScreenHeader: z.string().default('Welcome to Bathylog'),
  mainScreenText: z
    .string()
    .default(
      'Select a cruise from the list on the left, then a lowering from the cruise, then Replay, Map or Gallery to review it.',
    ),
  defaultVessel: z.string().default('R/V Discovery'),
  useAccessControl: z.boolean().default(false),
  disableEventLogging: z.boolean().default(false),
  recaptchaSiteKey: z.string().nullable().default(null),
  /** Origins allowed to post `login-with-token` into an embedded client. */
  loginWithTokenOrigins: z.array(z.string()).default([]),
  customCruiseName: nameList.nullable().default(null),
  customLoweringName: nameList.nullable().default(null),
  cruiseIdPlaceholder: z.string().nullable().default(null),
  cruiseIdRegex: z.string().nullable().default(null),
  loweringIdPlaceholder: z.string().nullable().default(null),
  loweringIdRegex: z.string().nullable().default(null),
  positionDataSources: z.array(z.string()).default(['vehicleRealtimeNavData']),
  excludeAuxDataSources: z.array(z.string()).default([]),
  imagesAuxDataSources: z.array(z.string()).default(['vehicleRealtimeFramegrabberData', 'eventFileAttachments']),
  auxDataSortOrder: z.array(z.string()).default(['vehicleRealtimeNavData']),
  auxDataSourceReplace: z.record(z.string(), z.string()).nullable().default(null),
  categorySortOrder: z.array(z.string()).nullable().default(null),
  imagePath: z.string().default('/files/images'),
  eventExportLimit: z.number().int().positive().default(15000),
  milestones: z
    .strictObject({
      start: milestoneSchema.default({ label: 'Off Deck' }),
      stop: milestoneSchema.default({ label: 'On Deck' }),
      abort: milestoneSchema.default({ name: 'lowering_aborted', label: 'Aborted' }),
      list: z.array(milestoneSchema).default([
        { name: 'lowering_descending', label: 'Descending' },
        { name: 'lowering_on_bottom', label: 'On Bottom' },
        { name: 'lowering_off_bottom', label: 'Off Bottom' },
        { name: 'lowering_on_surface', label: 'On Surface' },
      ]),
      descent: z.tuple([z.string(), z.string()]).default(['lowering_descending', 'lowering_on_bottom']),
      ascent: z.tuple([z.string(), z.string()]).default(['lowering_off_bottom', 'lowering_on_surface']),
    })
    .prefault({}),
  tileLayers: z.array(tileLayerSchema).default([
    {
      name: 'Esri Ocean',
      url: 'https://server.arcgisonline.com/ArcGIS/rest/services/Ocean/World_Ocean_Base/MapServer/tile/{z}/{y}/{x}',
      attribution: 'Tiles &copy; Esri',
      default: true,
      maxNativeZoom: 10,
    },
    {
      name: 'GMRT Basemap',
      url: 'https://www.gmrt.org/services/mapserver/wms_merc?',
      attribution: 'GMRT',
      wms: true,
      layers: 'topo',
      transparent: false,
    },
  ]),
  /** Overlay layers: an explicit list, or a URL that returns one. */
  overlayLayers: z.union([z.array(tileLayerSchema), z.string()]).default([]),
  defaultLocation: z
    .strictObject({ lat: z.number(), lng: z.number(), zoom: z.number().int() })
    .default({ lat: 41.38, lng: -71.5, zoom: 13 }),
});

export type ClientSettings = z.infer<typeof clientSettingsSchema>;
export type ClientSettingsInput = z.input<typeof clientSettingsSchema>;
