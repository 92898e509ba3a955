import { hydrateRoot } from 'react-dom/client';
import { PortalPage, type PortalPageProps } from '@/components/portal/portal-page';
import { PROPS_ID, ROOT_ID } from './page-root';

/*
 * The browser's half of the patient portal's pages, as flow-page.client.tsx is the flow page's: the components
 * take over the server's HTML with the props it rendered from, in the task after the script's evaluation.
 * Moving between the portal's pages is a plain link (a new document the server renders); its writes are JSON
 * posts (components/portal/portal-actions.ts).
 */
setTimeout(() => {
  const props = JSON.parse(document.getElementById(PROPS_ID)!.textContent!) as PortalPageProps;
  hydrateRoot(document.getElementById(ROOT_ID)!, <PortalPage {...props} />);
}, 0);
