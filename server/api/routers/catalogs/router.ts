import { router } from '@/server/api/trpc';
import { approveCatalogRoute } from './approve-catalog';
import { getCatalogRoute } from './get-catalog';
import { listCatalogsRoute } from './list-catalogs';
import { rejectCatalogRoute } from './reject-catalog';
import { uploadCatalogRoute } from './upload-catalog';

export const catalogsRouter = router({
  uploadCatalog: uploadCatalogRoute,
  listCatalogs: listCatalogsRoute,
  getCatalog: getCatalogRoute,
  approveCatalog: approveCatalogRoute,
  rejectCatalog: rejectCatalogRoute,
});
