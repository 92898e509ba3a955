import { THEME_TOKENS, themeVariable, type ThemeToken } from '@/server/domain/flows/shared/shapes';

export type ThemeTokens = Partial<Record<ThemeToken, string>>;

/** What the preview shows for a token the flow leaves unset: the hosted page's own fallbacks (its indigo accent, slate text). */
export const THEME_DEFAULTS: Record<ThemeToken, string> = {
  primary: '#4338ca',
  'primary-contrast': '#ffffff',
  background: '#f8fafc',
  surface: '#ffffff',
  text: '#0f172a',
  muted: '#475569',
  error: '#b91c1c',
  radius: '0.375rem',
  font: 'inherit',
  'max-width': '36rem',
};

/** The `--nl-flow-*` variables of a theme, defaults filled in, as the preview applies them. */
export function themeStyle(tokens: ThemeTokens): Record<string, string> {
  return Object.fromEntries(THEME_TOKENS.map((t) => [themeVariable(t), tokens[t] ?? THEME_DEFAULTS[t]]));
}
