import { processServices } from '@/server/api/process-services';

/** The address patients reach this service at (PUBLIC_URL), as the snippets and hosted links must name it. */
export const publicUrl = (): string => processServices().auth.publicUrl;
