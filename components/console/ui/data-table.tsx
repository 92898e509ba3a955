/** Tables scroll inside their own box, so a narrow screen never scrolls the whole page sideways (`relative`: visually hidden labels inside stay in it too). */
export function TableScroll({ children, label }: { children: React.ReactNode; label: string }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="relative max-w-full overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-indigo-600">
      {children}
    </div>
  );
}
