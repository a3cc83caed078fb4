/** The three ways to review a lowering. */
export type ReviewMode = 'replay' | 'map' | 'gallery';

/**
 * The review modes with the specification's words, one list for every menu that offers them: the
 * lowering card's Review menu and the review screens' breadcrumb (docs/screens.md#review-mode-menu).
 */
export const reviewModes: ReadonlyArray<{ mode: ReviewMode; label: string }> = [
  { mode: 'replay', label: 'Replay View' },
  { mode: 'map', label: 'Map View' },
  { mode: 'gallery', label: 'Gallery View' },
];

/** The review route of a lowering: /review_replay/{id}, /review_map/{id}, /review_gallery/{id}. */
export function reviewPath(mode: ReviewMode, loweringId: string): string {
  return `/review_${mode}/${loweringId}`;
}
