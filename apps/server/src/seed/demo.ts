import type { AppContext } from '../context.js';

/** Loads the FKt230303 demo cruise (filled in by the demo-data work). */
export async function loadDemo(_ctx: AppContext): Promise<void> {}
