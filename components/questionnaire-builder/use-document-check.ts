'use client';

import { useEffect, useRef, useState } from 'react';
import { apiErrorOf, useTRPCClient } from '@/web/trpc/client';
import type { RouterOutputs } from '@/web/console/types';
import type { Problem } from './problems';
import type { Built, Place } from './serialize';

export type QuestionnaireCheck = RouterOutputs['intake']['validateQuestionnaire'];

interface Outcome {
  /** The document checked, as JSON: the outcome is current while the editor still holds it. */
  json: string;
  result: QuestionnaireCheck | null;
  problems: Problem[];
  /** Where the checked document's paths were on screen. */
  places: Map<string, Place>;
  /** A failure that is not about the document (a lost connection, a role without the scope). */
  error: unknown;
}

/** The document's problems in a 400 from the validator (or from publication, which answers the same), else null. */
function documentProblems(error: unknown): Problem[] | null {
  const { message, data } = apiErrorOf(error);
  if (data?.httpStatus !== 400) return null;
  const details = (data.details ?? []) as Problem[];
  return details.length ? details : [{ param: data.param, message }];
}

const PAUSE_MS = 600;

/**
 * Checks the document with the API's validator (`intake.validateQuestionnaire`, a dry run) a moment after
 * each edit stops, and keeps the outcome with the places of the document it was for. A new questionnaire is
 * first checked after its first edit, so an empty form does not open on a wall of problems.
 */
export function useDocumentCheck(built: Built, { atOnce }: { atOnce: boolean }) {
  const client = useTRPCClient();
  const json = JSON.stringify(built.doc);
  const latest = useRef(built);
  latest.current = built;
  const initial = useRef(json);
  const seq = useRef(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [asked, setAsked] = useState(0);

  const waiting = !atOnce && asked === 0 && initial.current === json;

  useEffect(() => {
    if (waiting) return;
    const n = ++seq.current;
    const target = latest.current;
    const timer = setTimeout(() => {
      client.intake.validateQuestionnaire.mutate(target.doc).then(
        (result) => n === seq.current && setOutcome({ json, result, problems: [], places: target.places, error: null }),
        (error: unknown) => {
          if (n !== seq.current) return;
          const problems = documentProblems(error);
          setOutcome({ json, result: null, problems: problems ?? [], places: target.places, error: problems ? null : error });
        },
      );
    }, asked ? 0 : PAUSE_MS);
    return () => clearTimeout(timer);
  }, [json, asked, client, waiting]);

  const fresh = outcome?.json === json;
  return {
    checked: outcome !== null,
    busy: !fresh && !waiting,
    fresh,
    result: fresh ? (outcome?.result ?? null) : null,
    problems: outcome?.problems ?? [],
    places: outcome?.places ?? new Map<string, Place>(),
    error: outcome?.error ?? null,
    /** Checks now (a button, or after publishing). */
    recheck: () => setAsked((n) => n + 1),
    /** Takes the problems of a refused publication, which answers as the validator does. */
    adopt: (error: unknown, at: Built) => {
      const problems = documentProblems(error);
      if (problems) setOutcome({ json: JSON.stringify(at.doc), result: null, problems, places: at.places, error: null });
    },
    /** Whether a failure is about the document, and so already shown beside what it concerns. */
    claims: (error: unknown) => documentProblems(error) !== null,
  };
}

export type DocumentCheck = ReturnType<typeof useDocumentCheck>;
