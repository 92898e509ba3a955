export function AuthCard({ title, footer, children }: { title: string; footer?: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-xs font-semibold uppercase tracking-wider text-indigo-600">Fulfillment Rail</p>
        <h1 className="mt-1 mb-6 text-xl font-semibold text-slate-900">{title}</h1>
        {children}
      </div>
      {footer && <p className="mt-6 max-w-sm text-center text-xs text-slate-500">{footer}</p>}
    </main>
  );
}
