import { HomeLink, ProblemPage } from '@/components/console/ui/problem-page';

export const metadata = { title: 'Page not found · Fulfillment Rail' };

export default function ConsoleNotFound() {
  return (
    <ProblemPage code="404" title="Page not found" actions={<HomeLink href="/console">Back to Overview</HomeLink>}>
      <p>There is nothing at this address in the console. The link may be mistyped, or what it pointed to no longer exists.</p>
    </ProblemPage>
  );
}
