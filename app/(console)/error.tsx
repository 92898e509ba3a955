'use client';

import { useRouter } from 'next/navigation';
import { startTransition } from 'react';
import { HomeLink, ProblemPage } from '@/components/console/ui/problem-page';
import { apiErrorOf } from '@/web/trpc/client';

/**
 * A page that failed. Only the API's own message is shown (it is written for people and carries no
 * internals); anything else gets a plain sentence and the digest Next.js logged it under, to quote to support.
 */
export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const { data, message } = apiErrorOf(error);
  const fromApi = Boolean(data?.type);
  const reference = data?.request_id ?? error.digest;
  function retry() {
    // A server component's failure is only retried by fetching it again.
    startTransition(() => {
      router.refresh();
      reset();
    });
  }
  return (
    <ProblemPage
      code={fromApi && data?.httpStatus ? String(data.httpStatus) : 'Error'}
      title="This page could not be shown"
      actions={
        <>
          <button type="button" onClick={retry} className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-50">
            Try again
          </button>
          <HomeLink href="/console">Back to Overview</HomeLink>
        </>
      }
    >
      <p role="alert" className="break-words">
        {fromApi ? message : 'Something went wrong on our side while loading it. Trying again usually helps; if it keeps happening, contact support.'}
      </p>
      {reference && <p className="mt-2 font-mono text-xs text-slate-500">Reference {reference}</p>}
    </ProblemPage>
  );
}
