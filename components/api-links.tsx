const LINKS = [
  { href: '/v1/openapi.json', label: 'API reference (OpenAPI 3.1)', note: 'Every /v1 operation with its schemas and errors' },
  { href: '/healthz', label: 'Health check', note: 'Liveness of this process' },
];

export function ApiLinks() {
  return (
    <ul className="mt-8 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {LINKS.map((l) => (
        <li key={l.href} className="px-4 py-3">
          <a className="font-medium text-indigo-700 hover:underline" href={l.href}>
            {l.label}
          </a>
          <p className="text-sm text-slate-500">{l.note}</p>
        </li>
      ))}
    </ul>
  );
}
