'use client';

import { useCallback, useEffect, type RefObject } from 'react';

export type BridgeEvent = 'ready' | 'step' | 'qualified' | 'completed';
/** Ids, positions and the verdict: what the host page may learn. Never an answer, a name or an e-mail. */
export interface BridgeDetail {
  mode?: 'flow' | 'intake';
  embedKey?: string;
  flowId?: string;
  versionId?: string;
  sessionId?: string;
  stepId?: string;
  stepIndex?: number;
  stepCount?: number;
  verdict?: string;
  submissionId?: string;
  questionnaireKey?: string;
}

/**
 * Where the frame stands with the page holding it: not framed (opened directly, or the hosted page), framed by
 * the origin the server checked against the key (`parentOrigin`, from the widget's Referer), or refused: framed
 * with no checked origin, or by a page whose origin (`location.ancestorOrigins`, where the browser has it) is not
 * the one checked.
 */
export function parentStatus(parentOrigin: string | null): 'alone' | 'ok' | 'refused' {
  if (window.parent === window) return 'alone';
  if (!parentOrigin) return 'refused';
  const ancestor = window.location.ancestorOrigins?.[0];
  return ancestor && ancestor !== parentOrigin ? 'refused' : 'ok';
}

/**
 * Messages to the widget script on the host page: posted to the checked origin only (never '*'), tagged so the
 * script can tell them from other frames' messages, and the frame's height whenever its content changes size.
 * `parentOrigin` undefined: not an embed (the hosted page), nothing is posted.
 */
export function useEmbedBridge(parentOrigin: string | null | undefined, root: RefObject<HTMLElement | null>) {
  const post = useCallback(
    (type: BridgeEvent | 'resize', detail: BridgeDetail | { height: number }) => {
      if (!parentOrigin || parentStatus(parentOrigin) !== 'ok') return;
      const message = type === 'resize' ? { source: 'fulfillmentrail', type, ...detail } : { source: 'fulfillmentrail', type, detail };
      window.parent.postMessage(message, parentOrigin);
    },
    [parentOrigin],
  );

  useEffect(() => {
    const el = root.current;
    if (!parentOrigin || !el || parentStatus(parentOrigin) !== 'ok' || typeof ResizeObserver === 'undefined') return;
    let last = 0;
    const send = () => {
      const height = Math.ceil(el.getBoundingClientRect().height);
      if (height !== last) {
        last = height;
        post('resize', { height });
      }
    };
    const observer = new ResizeObserver(send);
    observer.observe(el);
    send();
    return () => observer.disconnect();
  }, [parentOrigin, post, root]);

  return post;
}
