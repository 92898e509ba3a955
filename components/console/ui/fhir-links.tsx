'use client';

import { useEffect, useState } from 'react';
import { CopyButton } from './copy-button';

/**
 * A record's FHIR R4 addresses (DESIGN decision 42) for a clinic's integrator to paste into an EHR or a FHIR
 * client: absolute on this console's origin (the API is served from the same host), each with a copy button.
 * They need an API key or session with the right scope; the console shows where, not what.
 */
export function FhirLinks({ links }: { links: { label: string; path: string }[] }) {
  // The origin is the browser's: known after hydration only, so the first render shows the paths.
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  return (
    <section aria-labelledby="fhir-links" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 id="fhir-links" className="font-medium text-slate-700">
        FHIR R4 <span className="font-normal text-slate-500">(read with an API key: patients.read, orders.read)</span>
      </h2>
      <ul className="space-y-1">
        {links.map(({ label, path }) => (
          <li key={path} className="flex flex-wrap items-center gap-2">
            <span className="w-40 shrink-0 text-slate-500">{label}</span>
            <code data-testid="fhir-link" className="min-w-0 break-all font-mono text-xs text-slate-700">{origin + path}</code>
            <CopyButton value={origin + path} label={`Copy the FHIR link: ${label}`} />
          </li>
        ))}
      </ul>
    </section>
  );
}
