'use client';

import type { FlowStepShape } from '@/server/domain/flows/shared/shapes';
import { apiErrorOf } from '@/web/trpc/client';
import { stepName } from './flow-steps';

/** A refused save in the API's words, with the field it names and, when that field is in a step, which step. */
export function SaveError({ error, steps, stepIndex }: { error: unknown; steps: readonly FlowStepShape[]; stepIndex: number | undefined }) {
  const { message, data } = apiErrorOf(error);
  const step = stepIndex !== undefined ? steps[stepIndex] : undefined;
  return (
    <div role="alert" data-testid="save-error" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      <p className="font-semibold">The draft was not saved; nothing changed.</p>
      {step && <p>{stepName(step, stepIndex!)}</p>}
      <p className="break-words">{message}</p>
      {data?.param && (
        <p className="mt-1 break-all font-mono text-xs" data-testid="save-error-param">
          Field: {data.param}
        </p>
      )}
    </div>
  );
}
