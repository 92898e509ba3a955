import Link from 'next/link';

/** Why an approval button is disabled, tied to it by `id`; a missing second factor links to where it is set up. */
export function BlockedReason({ id, reason, testId }: { id: string; reason: string; testId: string }) {
  return (
    <span id={id} data-testid={testId} className="text-sm break-words text-slate-600">
      {reason}
      {reason.startsWith('Enable two-factor') && (
        <>
          {' '}
          <Link href="/account" className="font-medium text-indigo-700 underline">
            Set it up in Account
          </Link>
        </>
      )}
    </span>
  );
}
