/**
 * Sandbox and live data are disjoint; the console's choice lives in one cookie, set by the console's pages (web/)
 * and read by them and by the custom server, which turns it into the X-Mode header of a console call
 * (server/http/trpc-endpoint.ts). Here, not in web/, because the custom server never imports the console's code.
 */
export type Mode = 'sandbox' | 'live';
export const MODE_COOKIE = 'fr_mode';
export const modeOf = (value: string | undefined): Mode => (value === 'live' ? 'live' : 'sandbox');
