import type { RouterOutputs } from '@/web/console/types';

type Usage = RouterOutputs['developer']['getUsage'];

/** Routed live orders against the plan's monthly cap (or the count alone on an uncapped plan). */
export function UsageMeter({ usage }: { usage: Usage }) {
  const cap = usage.orderCapPerMonth;
  const share = cap ? Math.min(100, Math.round((usage.ordersRouted / cap) * 100)) : 0;
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600">
        <span className="text-3xl font-semibold tabular-nums text-slate-900" data-testid="usage-routed">{usage.ordersRouted}</span>
        {cap !== undefined ? ` of ${cap} live orders routed this month` : ' live orders routed this month'}
      </p>
      {cap !== undefined && (
        <>
          <div
            role="progressbar"
            aria-label="Live orders routed against the plan's monthly cap"
            aria-valuemin={0}
            aria-valuemax={cap}
            aria-valuenow={usage.ordersRouted}
            className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
          >
            <div className={`h-full ${share >= 90 ? 'bg-red-600' : share >= 75 ? 'bg-amber-500' : 'bg-indigo-600'}`} style={{ width: `${share}%` }} />
          </div>
          <p className="text-sm text-slate-600">
            {usage.ordersRemaining} remaining on the <span className="capitalize">{usage.plan}</span> plan
          </p>
        </>
      )}
      {cap === undefined && (
        <p className="text-sm text-slate-600">
          The <span className="capitalize">{usage.plan}</span> plan has no monthly cap.
        </p>
      )}
    </div>
  );
}
