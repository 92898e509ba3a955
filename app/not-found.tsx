import { HomeLink, ProblemPage } from '@/components/console/ui/problem-page';

export const metadata = { title: 'Page not found · Fulfillment Rail' };

export default function NotFound() {
  return (
    <main id="main" className="px-4 py-16">
      <ProblemPage code="404" title="Page not found" actions={<HomeLink href="/">Back to Fulfillment Rail</HomeLink>}>
        <p>There is nothing at this address. The link may be mistyped, or what it pointed to no longer exists.</p>
      </ProblemPage>
    </main>
  );
}
