'use client';

import { createContext, useContext } from 'react';
import { adminMessage } from './problem-words';
import { placeKey, placeOf, type Place } from './serialize';

/**
 * The validator's problems, pinned to the editor elements they concern. The server words each one with its
 * location first ("item 'dob' (items.0.type): …"); beside the element that location is already plain, so it
 * is dropped (the summary says where in the builder's own words), and the rest is reworded for an admin.
 */

export interface Problem {
  param?: string;
  message: string;
}

export interface PlacedProblem extends Problem {
  place: Place;
  /** The message without its location prefix, in an admin's words (problem-words.ts): what the builder shows. */
  short: string;
}

const LOCATION = /^(item '[^']*' \([^)]*\)|[\w.]+): /;

export function placeProblems(problems: readonly Problem[], places: Map<string, Place>): PlacedProblem[] {
  return problems.map((p) => ({ ...p, place: placeOf(p.param, places), short: adminMessage(p.param, p.message.replace(LOCATION, '')) }));
}

export interface ProblemIndex {
  all: readonly PlacedProblem[];
  /** Problems of one element's field ('' = the element as a whole). */
  at(uid: string, field?: string): PlacedProblem[];
  /** Every problem of an element, whatever its field. */
  within(uid: string): PlacedProblem[];
}

export function indexProblems(placed: readonly PlacedProblem[]): ProblemIndex {
  return {
    all: placed,
    at: (uid, field = '') => placed.filter((p) => placeKey(p.place) === placeKey({ uid, field })),
    within: (uid) => placed.filter((p) => p.place.uid === uid),
  };
}

const NONE: ProblemIndex = { all: [], at: () => [], within: () => [] };
export const ProblemsContext = createContext<ProblemIndex>(NONE);
export const useProblems = () => useContext(ProblemsContext);

/** The id of the message beside an element's field, for aria-describedby and the summary's links. */
export const messageId = (uid: string, field = '') => `qb-problem-${uid}${field ? `-${field}` : ''}`;

/** The problems of one element's field, beside it; nothing when there are none. */
export function FieldProblems({ uid, field = '' }: { uid: string; field?: string }) {
  const found = useProblems().at(uid, field);
  if (found.length === 0) return null;
  return (
    <div id={messageId(uid, field)} data-testid="builder-problem" className="mt-1 space-y-0.5 text-sm break-words text-red-700">
      {found.map((p, i) => (
        <p key={i}>{p.short}</p>
      ))}
    </div>
  );
}

/** aria-invalid and aria-describedby for a control whose field has problems. */
export function useInvalid(uid: string, field = '', describedBy?: string) {
  const found = useProblems().at(uid, field).length > 0;
  const ids = [describedBy, found ? messageId(uid, field) : undefined].filter(Boolean).join(' ');
  return { 'aria-invalid': found || undefined, 'aria-describedby': ids || undefined } as const;
}
