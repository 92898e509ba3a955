import { CopyButton } from '../ui/copy-button';

/** The tag a clinic pastes into its site: the versioned widget script and the key, loaded without blocking. */
export const flowSnippet = (publicUrl: string, embedKey: string) => `<script src="${publicUrl}/embed/v1/flow.js" data-embed-key="${embedKey}" async></script>`;

export const hostedFlowUrl = (publicUrl: string, embedKey: string) => `${publicUrl}/f/${embedKey}`;

/** The snippet of a key that serves a flow, and the address of its hosted page, each with a copy button. */
export function EmbedSnippet({ publicUrl, embedKey }: { publicUrl: string; embedKey: string }) {
  const snippet = flowSnippet(publicUrl, embedKey);
  const hosted = hostedFlowUrl(publicUrl, embedKey);
  return (
    <div className="space-y-2">
      <div className="flex min-w-0 items-start gap-2">
        <code data-testid="embed-snippet" className="block min-w-0 flex-1 break-all rounded bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100">
          {snippet}
        </code>
        <CopyButton value={snippet} label={`Copy the embed snippet of ${embedKey}`} />
      </div>
      <p className="flex min-w-0 flex-wrap items-center gap-2 text-slate-600">
        <span>Hosted page:</span>
        <a href={hosted} target="_blank" rel="noreferrer" className="min-w-0 break-all font-mono text-xs text-indigo-700 underline">
          {hosted}
        </a>
        <CopyButton value={hosted} label={`Copy the hosted page address of ${embedKey}`} />
      </p>
    </div>
  );
}
