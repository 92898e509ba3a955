import { hydrateRoot } from 'react-dom/client';
import { FlowRunner } from '@/components/flows/flow-runner';
import type { FlowPageProps } from './flow-page-props';
import { PROPS_ID, ROOT_ID } from './page-root';

/*
 * The browser's half of the hosted flow page and the widget's frame (docs/decisions/flows.md, "The patient pages'
 * weight"): the page's components take over the HTML the server rendered, with the same props it rendered from,
 * carried in the page as JSON. Nothing else runs: no router, no framework runtime, no validation library, and
 * React's API on Preact (scripts/build-patient-pages.mjs). Hydration waits for the task after the script's own
 * evaluation, so neither holds a phone's main thread long; the page's buttons stay disabled until the
 * components own them (web/use-hydrated.ts).
 */
setTimeout(() => {
  const props = JSON.parse(document.getElementById(PROPS_ID)!.textContent!) as FlowPageProps;
  hydrateRoot(document.getElementById(ROOT_ID)!, <FlowRunner {...props} />);
}, 0);
