import { redirectLogs } from '@/server/lib/logger';

/** Everything the process logs from now until `restore`, at every level, as the raw lines. */
export function captureLogs() {
  const lines: string[] = [];
  const restore = redirectLogs({ write: (line: string) => void lines.push(line) });
  return {
    /** How many lines so far: pass it to `text` to read only what came after. */
    count: () => lines.length,
    text: (from = 0) => lines.slice(from).join(''),
    records: () => lines.map((l) => JSON.parse(l) as Record<string, any>),
    restore,
  };
}
