import type { RouterOutputs } from '@/web/console/types';

/** The flow shapes as the router answers them (authoring, `flows.*`): a page and its procedure cannot disagree. */
export type Flow = RouterOutputs['flows']['get'];
export type FlowVersionSummary = NonNullable<Flow['activeVersion']>;
export type DraftDocument = Flow['draft'];
export type PendingClinicalChanges = NonNullable<Flow['pendingClinicalChanges']>;
