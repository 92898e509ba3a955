/** Sandbox and live data are disjoint; the console's choice lives in one cookie, read by pages and the data link. */
export type Mode = 'sandbox' | 'live';
export const MODE_COOKIE = 'fr_mode';
export const modeOf = (value: string | undefined): Mode => (value === 'live' ? 'live' : 'sandbox');
