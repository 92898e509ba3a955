import type { OrderTimelineEntry } from './order-types';
import { reasonTitle, timelineReasonWords } from './reason-words';

function Code({ code }: { code: string }) {
  return <span className="font-mono text-xs text-slate-500">{code}</span>;
}

/** A rejection's reason: its words, then its code. */
export function RejectionReason({ code }: { code: string }) {
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-1.5">
      <span>{reasonTitle(code)}</span>{' '}
      <Code code={code} />
    </span>
  );
}

/** The reason cell of one timeline row: a rejection or a pharmacy's hold in words, the code beside them; any other code as it is. */
export function TimelineReason({ entry }: { entry: OrderTimelineEntry }) {
  if (!entry.reasonCode) return <span className="font-mono text-xs">—</span>;
  const words = timelineReasonWords(entry);
  if (!words) return <span className="font-mono text-xs">{entry.reasonCode}</span>;
  return (
    <span data-testid="timeline-reason-words" className="inline-flex flex-wrap items-baseline gap-x-1.5">
      <span>{words}</span>{' '}
      <Code code={entry.reasonCode} />
    </span>
  );
}
