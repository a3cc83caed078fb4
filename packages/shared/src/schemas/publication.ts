import { z } from 'zod/mini';

/**
 * Standard publication of a dive or a cruise (docs/publication.md): a Darwin Core Archive for OBIS
 * and GBIF, and the event lists the national archives take (R2R, PANGAEA). The settings are the
 * installation's own, edited by admins: the dataset's metadata defaults, the mapping of aux data to
 * NERC vocabulary terms, and the mapping of templates to instruments and actions.
 */

const text = (max: number) => z.string().check(z.maxLength(max));
const name = z.string().check(z.minLength(1), z.maxLength(200));

/** The licences GBIF and OBIS accept for occurrence data. */
export const publicationLicences = ['CC0-1.0', 'CC-BY-4.0', 'CC-BY-NC-4.0'] as const;
export type PublicationLicence = (typeof publicationLicences)[number];

export const basisOfRecordValues = ['HumanObservation', 'MachineObservation', 'MaterialSample'] as const;

/**
 * One aux-data value published as a measurement: `data_source` / `data_name` of the aux record,
 * the NERC P01 parameter and P06 unit codes, and the conversion from the source's unit
 * (published = value × scale + offset).
 */
export const measurementMappingSchema = z.strictObject({
  data_source: name,
  data_name: name,
  /** The measurementType text, e.g. `sea water temperature`. */
  type: name,
  /** NERC P01 code, e.g. `TEMPPR01`. */
  type_id: z.string().check(z.regex(/^[A-Z0-9]{8}$/, 'a NERC P01 code is 8 capitals or digits (TEMPPR01)')),
  /** The unit as published, e.g. `degC`. */
  unit: name,
  /** NERC P06 code, e.g. `UPAA`. */
  unit_id: z.string().check(z.regex(/^[A-Z0-9]{4}$/, 'a NERC P06 code is 4 capitals or digits (UPAA)')),
  /** The unit the source sends, for the record (`degF`); empty when it is the published unit. */
  source_unit: z._default(text(50), ''),
  scale: z._default(z.number().check(z.refine(Number.isFinite, 'scale must be a finite number')), 1),
  offset: z._default(z.number().check(z.refine(Number.isFinite, 'offset must be a finite number')), 0),
});
export type MeasurementMapping = z.infer<typeof measurementMappingSchema>;

/** A template (event value) in the archives' event lists: the instrument and the action it logs. */
export const eventListMappingSchema = z.strictObject({
  event_value: name,
  /** R2R instrument, e.g. `ROV`, `CTD`, `Niskin bottle`. */
  instrument: name,
  /** R2R action, e.g. `deploy`, `recover`, `sample`, `start`, `end`. */
  action: name,
  /** PANGAEA device (its controlled list), e.g. `Remote operated vehicle`; empty: the instrument. */
  device: z._default(text(200), ''),
});
export type EventListMapping = z.infer<typeof eventListMappingSchema>;

export const datasetSettingsSchema = z.strictObject({
  publisher: z._default(text(200), ''),
  contact_name: z._default(text(200), ''),
  contact_email: z._default(
    z.string().check(z.maxLength(200), z.regex(/^$|^[^\s@]+@[^\s@]+$/, 'contact_email is not an e-mail address')),
    '',
  ),
  licence: z._default(z.enum(publicationLicences), 'CC-BY-4.0'),
  basis_of_record: z._default(z.enum(basisOfRecordValues), 'HumanObservation'),
  /**
   * Public address of this server for `associatedMedia` (frame grab URLs), e.g.
   * `https://sealog.example.org`; empty: the server's public URL (BATHYLOG_PUBLIC_URL).
   */
  media_base_url: z._default(
    z
      .string()
      .check(
        z.maxLength(500),
        z.regex(
          /^$|^https?:\/\/[^\s/@]+(:\d+)?(\/[^\s?#]*)?$/,
          'media_base_url must be an http(s) address without credentials',
        ),
      ),
    '',
  ),
  /** Aux sources holding the vehicle's position, first present wins. */
  vehicle_nav_sources: z._default(z.array(name), ['vehicleRealtimeNavData']),
  /** Aux sources holding the vessel's position, used when the vehicle's is missing. */
  vessel_nav_sources: z._default(z.array(name), ['vesselRealtimeNavData']),
  vehicle_uncertainty_m: z._default(z.number().check(z.positive()), 10),
  vessel_uncertainty_m: z._default(z.number().check(z.positive()), 500),
  /** Event values that are observations: one of them without a taxon is listed as unmapped. */
  observation_values: z._default(z.array(name), ['OBSERVATION', 'FAUNA', 'BIO']),
});
export type DatasetSettings = z.infer<typeof datasetSettingsSchema>;

export const publicationSettingsSchema = z.strictObject({
  dataset: z._default(datasetSettingsSchema, () => datasetSettingsSchema.parse({})),
  measurements: z._default(z.array(measurementMappingSchema).check(z.maxLength(500)), () => [...defaultMeasurements]),
  event_lists: z._default(z.array(eventListMappingSchema).check(z.maxLength(1000)), []),
});
export type PublicationSettings = z.infer<typeof publicationSettingsSchema>;

/** The measurements a vessel starts with: the vehicle's CTD, oxygen and navigation sensors. */
export const defaultMeasurements: MeasurementMapping[] = [
  ['vehicleRealtimeCTDData', 'ctd_temp', 'sea water temperature', 'TEMPPR01', 'degC', 'UPAA'],
  ['vehicleRealtimeCTDData', 'ctd_sal', 'sea water practical salinity', 'PSALST01', 'dimensionless', 'UUUU'],
  ['vehicleRealtimeCTDData', 'ctd_pressure', 'sea water pressure', 'PRESPR01', 'dbar', 'UPDB'],
  ['vehicleRealtimeCTDData', 'ctd_depth', 'depth below surface', 'ADEPZZ01', 'm', 'ULAA'],
  ['vehicleRealtimeO2Data', 'o2_concentration', 'dissolved oxygen concentration', 'DOXYZZXX', 'umol/L', 'UPOX'],
  ['vehicleRealtimeNavData', 'altitude', 'height above seabed', 'AHSFZZ01', 'm', 'ULAA'],
].map(([data_source, data_name, type, type_id, unit, unit_id]) => ({
  data_source: data_source!,
  data_name: data_name!,
  type: type!,
  type_id: type_id!,
  unit: unit!,
  unit_id: unit_id!,
  source_unit: '',
  scale: 1,
  offset: 0,
}));

/** PUT /publication/settings: every part optional; a part sent replaces the stored one. */
export const updatePublicationSettingsSchema = z.strictObject({
  dataset: z.optional(datasetSettingsSchema),
  measurements: z.optional(z.array(measurementMappingSchema).check(z.maxLength(500))),
  event_lists: z.optional(z.array(eventListMappingSchema).check(z.maxLength(1000))),
});
export type UpdatePublicationSettings = z.infer<typeof updatePublicationSettingsSchema>;

/** One finding of the archive validator. */
export const validationIssueSchema = z.object({
  /** `meta.xml`, `eml.xml`, `event.txt`, … */
  file: z.string(),
  /** 1-based line of the file (the header is line 1), when the finding is about one row. */
  line: z.optional(z.number()),
  field: z.optional(z.string()),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/** An observation that has no taxon: not in the archive, listed so a curator can map it. */
export const unmappedObservationSchema = z.object({
  event_id: z.string(),
  ts: z.string(),
  event_value: z.string(),
  /** The event's options and free text as the logger left them. */
  verbatim: z.string(),
});
export type UnmappedObservation = z.infer<typeof unmappedObservationSchema>;

/** The validator's report on one export. */
export const publicationReportSchema = z.object({
  ok: z.boolean(),
  /** The archive's file name. */
  file_name: z.string(),
  /** sha256 of the zip, hex. */
  sha256: z.string(),
  bytes: z.number(),
  counts: z.object({
    events: z.number(),
    observations: z.number(),
    occurrences: z.number(),
    measurements: z.number(),
    unmapped: z.number(),
  }),
  errors: z.array(validationIssueSchema),
  warnings: z.array(validationIssueSchema),
  unmapped: z.array(unmappedObservationSchema),
});
export type PublicationReport = z.infer<typeof publicationReportSchema>;

export const eventListFormats = ['r2r', 'pangaea'] as const;
export type EventListFormat = (typeof eventListFormats)[number];

export const archiveEventListQuerySchema = z.strictObject({
  format: z._default(z.enum(eventListFormats), 'r2r'),
});

/** API paths (under /sealog-server/api/v1). */
export function dwcaPath(kind: 'cruise' | 'lowering', id: string): string {
  return `publication/dwca/by${kind}/${id}`;
}
export function dwcaReportPath(kind: 'cruise' | 'lowering', id: string): string {
  return `publication/dwca_report/by${kind}/${id}`;
}
export function eventListPath(id: string, format: EventListFormat): string {
  return `publication/event_list/bycruise/${id}?format=${format}`;
}
