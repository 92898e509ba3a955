import { getGlobalServices } from '@/server/http/global-services';

/** The address patients reach this service at (PUBLIC_URL), as the snippets and hosted links must name it. */
export const publicUrl = (): string => getGlobalServices().auth.publicUrl;
