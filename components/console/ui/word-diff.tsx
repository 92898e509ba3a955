import { diffWords } from 'diff';

/*
 * What changed in a text, word by word (issue 33, item 7), for a provider approving a clinical change: the
 * words removed in <del>, the words added in <ins>. Not colour alone: removed words are struck through,
 * added ones underlined, and each carries words for screen readers ("removed:", "added:"), since most
 * read <ins>/<del> as plain text.
 */

const INS = 'rounded-sm bg-emerald-100 px-0.5 text-emerald-950 underline decoration-2 underline-offset-2';
const DEL = 'rounded-sm bg-red-100 px-0.5 text-red-950 line-through decoration-2';

/** `before` → `after` as one run of text with the changed words marked; the unchanged text reads as it is. */
export function WordDiff({ before, after, testId = 'word-diff' }: { before: string; after: string; testId?: string }) {
  const parts = diffWords(before, after);
  return (
    <span data-testid={testId} className="break-words whitespace-pre-line">
      {parts.map((p, i) =>
        p.added ? (
          <ins key={i} className={INS}>
            <span className="sr-only">[added: </span>
            {p.value}
            <span className="sr-only">]</span>
          </ins>
        ) : p.removed ? (
          <del key={i} className={DEL}>
            <span className="sr-only">[removed: </span>
            {p.value}
            <span className="sr-only">]</span>
          </del>
        ) : (
          <span key={i}>{p.value}</span>
        ),
      )}
    </span>
  );
}

/** One labelled field of a change: the word diff when it changed, the text as it is when it did not. */
export function FieldDiff({ label, before, after }: { label: string; before: string; after: string }) {
  return (
    <p className="min-w-0 break-words">
      <span className="font-medium text-slate-600">{label}: </span>
      {before === after ? <span>{after}</span> : <WordDiff before={before} after={after} />}
    </p>
  );
}
