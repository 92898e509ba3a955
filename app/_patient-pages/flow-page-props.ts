import type { ComponentProps } from 'react';
import type { FlowRunner } from '@/components/flows/flow-runner';

/** What the server renders the flow's page from and the browser hydrates it with. */
export type FlowPageProps = ComponentProps<typeof FlowRunner>;

