import { FlowShell } from './flow-shell';

/** Shown in a frame on a site the key does not allow: nothing is started, nothing is sent to that page. */
export function EmbedRefused({ cssVariables }: { cssVariables: Record<string, string> }) {
  return (
    <FlowShell cssVariables={cssVariables} embedded title="This form cannot be shown on this website">
      <p className="text-base">The clinic has not allowed this website to show its form. Please visit the clinic&apos;s own website instead.</p>
    </FlowShell>
  );
}
