import { z } from 'zod/mini';

/**
 * Runtime settings the server hands the client at start (GET /sealog-server/client_settings),
 * so one client build serves every vessel. The keys are those of the Sealog client's settings
 * file, so a vessel's existing settings carry over.
 */
export const milestoneSchema = z.strictObject({ name: z.optional(z.string()), label: z.string() });

export const tileLayerSchema = z.strictObject({
  name: z.string(),
  url: z.string(),
  attribution: z._default(z.string(), ''),
  default: z.optional(z.boolean()),
  wms: z.optional(z.boolean()),
  layers: z.optional(z.string()),
  transparent: z.optional(z.boolean()),
  tms: z.optional(z.boolean()),
  zoomOffset: z.optional(z.number()),
  maxNativeZoom: z.optional(z.number()),
});
export type TileLayer = z.infer<typeof tileLayerSchema>;

const nameList = z.tuple([z.string().check(z.minLength(1)), z.string().check(z.minLength(1))]);

/**
 * Whether a live stream address may reach every console: an http(s) URL that carries no user
 * name or password (they would sit in every reader's browser and history).
 */
export function isShareableStreamUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** A camera's live stream (docs/video.md#live-video): camera name → its http(s) URL, no credentials. */
export const liveVideoStreamsSchema = z.record(
  z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'a camera is letters, digits, _ or -')),
  z.string().check(z.refine(isShareableStreamUrl, 'must be an http(s) URL without a user name or password')),
);

export const clientSettingsSchema = z.strictObject({
  headerTitle: z._default(z.string(), 'Bathylog'),
  loginScreenText: z._default(z.string(), 'Bathylog: event logging and dive review for research vessels.'),
  loginImage: z._default(z.nullable(z.string()), null),
  mainScreenHeader: z._default(z.string(), 'Welcome to Bathylog'),
  mainScreenText: z._default(
    z.string(),
    'Select a cruise from the list on the left, then a lowering from the cruise, then Replay, Map or Gallery to review it.',
  ),
  defaultVessel: z._default(z.string(), 'R/V Discovery'),
  useAccessControl: z._default(z.boolean(), false),
  /** The public archive is on: the login screen offers it and anonymous visitors may browse it. */
  publicArchive: z._default(z.boolean(), false),
  /**
   * Self-registration is closed (the server's registration.disabled): a new account stays disabled
   * until an admin enables it, so the login screen offers no Register link and the register screen
   * says so.
   */
  registrationDisabled: z._default(z.boolean(), false),
  disableEventLogging: z._default(z.boolean(), false),
  recaptchaSiteKey: z._default(z.nullable(z.string()), null),
  /** Origins allowed to post `login-with-token` into an embedded client. */
  loginWithTokenOrigins: z._default(z.array(z.string()), []),
  customCruiseName: z._default(z.nullable(nameList), null),
  customLoweringName: z._default(z.nullable(nameList), null),
  cruiseIdPlaceholder: z._default(z.nullable(z.string()), null),
  cruiseIdRegex: z._default(z.nullable(z.string()), null),
  loweringIdPlaceholder: z._default(z.nullable(z.string()), null),
  loweringIdRegex: z._default(z.nullable(z.string()), null),
  positionDataSources: z._default(z.array(z.string()), ['vehicleRealtimeNavData']),
  excludeAuxDataSources: z._default(z.array(z.string()), []),
  imagesAuxDataSources: z._default(z.array(z.string()), [
    'vehicleRealtimeFramegrabberData',
    'recordedFramegrabberData',
    'eventFileAttachments',
  ]),
  auxDataSortOrder: z._default(z.array(z.string()), ['vehicleRealtimeNavData']),
  auxDataSourceReplace: z._default(z.nullable(z.record(z.string(), z.string())), null),
  categorySortOrder: z._default(z.nullable(z.array(z.string())), null),
  imagePath: z._default(z.string(), '/files/images'),
  eventExportLimit: z._default(z.number().check(z.int(), z.positive()), 15000),
  /** Each camera's live stream, opened from the console's history for recent events. */
  liveVideoStreams: z._default(liveVideoStreamsSchema, {}),
  milestones: z.prefault(
    z.strictObject({
      start: z._default(milestoneSchema, { label: 'Off Deck' }),
      stop: z._default(milestoneSchema, { label: 'On Deck' }),
      abort: z._default(milestoneSchema, { name: 'lowering_aborted', label: 'Aborted' }),
      list: z._default(z.array(milestoneSchema), [
        { name: 'lowering_descending', label: 'Descending' },
        { name: 'lowering_on_bottom', label: 'On Bottom' },
        { name: 'lowering_off_bottom', label: 'Off Bottom' },
        { name: 'lowering_on_surface', label: 'On Surface' },
      ]),
      descent: z._default(z.tuple([z.string(), z.string()]), ['lowering_descending', 'lowering_on_bottom']),
      ascent: z._default(z.tuple([z.string(), z.string()]), ['lowering_off_bottom', 'lowering_on_surface']),
    }),
    {},
  ),
  /** The map's base layers; the default (the demo's) is two raster tile layers and one WMS layer. */
  tileLayers: z._default(z.array(tileLayerSchema), [
    {
      name: 'Esri Ocean',
      url: 'https://server.arcgisonline.com/ArcGIS/rest/services/Ocean/World_Ocean_Base/MapServer/tile/{z}/{y}/{x}',
      attribution: 'Tiles &copy; Esri',
      default: true,
      maxNativeZoom: 10,
    },
    {
      name: 'Esri World Imagery',
      url: 'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}',
      attribution: 'Tiles &copy; Esri',
      maxNativeZoom: 17,
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
  overlayLayers: z._default(z.union([z.array(tileLayerSchema), z.string()]), []),
  defaultLocation: z._default(z.strictObject({ lat: z.number(), lng: z.number(), zoom: z.number().check(z.int()) }), {
    lat: 41.38,
    lng: -71.5,
    zoom: 13,
  }),
});

export type ClientSettings = z.infer<typeof clientSettingsSchema>;
export type ClientSettingsInput = z.input<typeof clientSettingsSchema>;
