'use client';

import type { FlowOption } from './embed-key-form';

/** The flows an embed key may serve. */
export function useFlowOptions(): FlowOption[] {
  return [];
}
