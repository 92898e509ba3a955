import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { FlowRunner } from '@/components/flows/flow-runner';
import type { FlowPageProps } from './flow-page-props';
import { PROPS_ID, ROOT_ID } from './page-root';

/*
 * The browser's half of the hosted flow page and the widget's frame (docs/decisions/flows.md, "The patient pages'
 * weight"): React takes over the HTML the server rendered, with the same props it rendered from, carried in the
 * page as JSON. Nothing else runs: no router, no framework runtime, no validation library. Hydrating in a
 * transition lets React yield to the browser every few milliseconds instead of holding the main thread for the
 * whole tree (a phone's long task); the page's buttons stay disabled until React owns them (web/use-hydrated.ts).
 */
const props = JSON.parse(document.getElementById(PROPS_ID)!.textContent!) as FlowPageProps;
startTransition(() => {
  hydrateRoot(document.getElementById(ROOT_ID)!, <FlowRunner {...props} />);
});
