import type { Services } from '@/server/api/context';
import { loadPatientPageAssets } from './patient-assets';
import { createFlowPages } from './render-flow-page';
import { createPortalPages } from './render-portal-page';

export { createPortalActions } from './portal-actions';

/**
 * The patient pages the custom server renders itself (server/http/patient-pages.ts is the port), from the built
 * assets in `dir`, their scripts addressed under the server's `assetPrefix`.
 */
export function createPatientPages(services: Services, assetPrefix: string, dir?: string) {
  const assets = loadPatientPageAssets(assetPrefix, dir);
  return { render: createFlowPages(services, assets), renderPortal: createPortalPages(services, assets), files: assets.files };
}
