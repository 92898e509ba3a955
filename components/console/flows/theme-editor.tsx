'use client';

import { useId } from 'react';
import { THEME_TOKENS, themeVariable, type ThemeToken } from '@/server/domain/flows/shared/shapes';
import { THEME_DEFAULTS, type ThemeTokens } from './theme-tokens';

const COLOR_TOKENS: readonly ThemeToken[] = ['primary', 'primary-contrast', 'background', 'surface', 'text', 'muted', 'error'];
const HEX = /^#[0-9a-fA-F]{6}$/;

const LABEL: Record<ThemeToken, string> = {
  primary: 'Primary colour',
  'primary-contrast': 'Text on primary',
  background: 'Background',
  surface: 'Card surface',
  text: 'Text',
  muted: 'Secondary text',
  error: 'Error',
  radius: 'Corner radius',
  font: 'Font family',
  'max-width': 'Page width',
};

function TokenField({ token, value, onChange }: { token: ThemeToken; value: string | undefined; onChange: (v: string) => void }) {
  const id = useId();
  const color = COLOR_TOKENS.includes(token);
  const shown = value ?? '';
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {LABEL[token]} <code className="font-mono text-xs font-normal text-slate-500">{themeVariable(token)}</code>
      </label>
      <div className="mt-1 flex items-center gap-2">
        {color && (
          <input
            type="color"
            aria-label={`${LABEL[token]} picker`}
            value={HEX.test(shown) ? shown : THEME_DEFAULTS[token]}
            onChange={(e) => onChange(e.target.value)}
            className="h-9 w-10 shrink-0 cursor-pointer rounded border border-slate-300 bg-white"
          />
        )}
        <input
          id={id}
          value={shown}
          placeholder={THEME_DEFAULTS[token]}
          maxLength={64}
          onChange={(e) => onChange(e.target.value)}
          className="block w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
        />
      </div>
    </div>
  );
}

/** The theme tokens; an emptied field falls back to the default (the token is removed from the document). */
export function ThemeEditor({ tokens, onChange }: { tokens: ThemeTokens; onChange: (tokens: ThemeTokens) => void }) {
  return (
    <fieldset className="grid gap-3 sm:grid-cols-2">
      <legend className="mb-2 text-sm font-semibold text-slate-800">Theme tokens (presentation only: publish at once)</legend>
      {THEME_TOKENS.map((token) => (
        <TokenField
          key={token}
          token={token}
          value={tokens[token]}
          onChange={(v) => {
            const next = { ...tokens };
            if (v.trim() === '') delete next[token];
            else next[token] = v;
            onChange(next);
          }}
        />
      ))}
    </fieldset>
  );
}
