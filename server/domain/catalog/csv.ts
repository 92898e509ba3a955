import { parse } from 'csv-parse/sync';
import { AppError, type ErrorDetail } from '@/server/lib/errors';

/** One priced row of a pharmacy's list before its product is resolved; `ref` is a product SKU or id. */
export interface CatalogRowInput {
  line: number;
  ref: string;
  itemCode: string;
  priceCents: number;
  stock: number;
  etaDays: number;
  /** Drug codes a synced feed gave (11-digit NDC, RxCUI); an uploaded CSV carries none. */
  ndc?: string | null;
  rxcui?: string | null;
}

export const MAX_CATALOG_ROWS = 20_000;
const REQUIRED = ['item_code', 'price_cents', 'stock', 'eta_days'] as const;
const LIMITS = { price_cents: 10_000_000, stock: 1_000_000_000, eta_days: 365 } as const;

const normalizeHeader = (h: string) => h.trim().toLowerCase().replace(/[\s-]+/g, '_');

function wholeNumber(raw: string, column: keyof typeof LIMITS, line: number, problems: ErrorDetail[]): number {
  const value = raw.trim();
  if (!/^\d+$/.test(value) || Number(value) > LIMITS[column]) {
    problems.push({ line, param: column, message: `${column} must be a whole number from 0 to ${LIMITS[column]}.` });
    return 0;
  }
  return Number(value);
}

const invalidCsv = (message: string, details: ErrorDetail[] = []) => new AppError('validation_error', 'invalid_csv', 400, message, 'csv', undefined, details);

/**
 * Reads the README's catalog CSV: a header row naming `sku` or `product_id`, `item_code`, `price_cents`,
 * `stock` and `eta_days` (any order, any case; other columns are ignored). Every bad row is reported by
 * its line in the file, and a file with any bad row is refused whole.
 */
export function parseCatalogCsv(text: string): { rows: CatalogRowInput[]; problems: ErrorDetail[] } {
  let records: { record: Record<string, string>; info: { lines: number }; raw: string }[];
  try {
    // One line ending throughout, so the line numbers reported match what an editor shows for mixed files.
    records = parse(text.replace(/\r\n?/g, '\n'), {
      columns: (header: string[]) => header.map(normalizeHeader),
      bom: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      raw: true,
      max_record_size: 64 * 1024,
    });
  } catch (err) {
    const e = err as { lines?: number; code?: string };
    throw invalidCsv(`The CSV could not be read${e.lines ? ` (line ${e.lines})` : ''}: check quoting and that every row has as many fields as the header.`, e.lines ? [{ line: e.lines, message: 'Malformed row' }] : []);
  }
  if (records.length === 0) throw invalidCsv('The CSV has no rows: send a header row and at least one priced row.');
  if (records.length > MAX_CATALOG_ROWS) throw invalidCsv(`The CSV has ${records.length} rows; the limit is ${MAX_CATALOG_ROWS}.`);
  const columns = Object.keys(records[0].record);
  const refColumn = columns.includes('sku') ? 'sku' : columns.includes('product_id') ? 'product_id' : null;
  const missing = [...(refColumn ? [] : ['sku or product_id']), ...REQUIRED.filter((c) => !columns.includes(c))];
  if (missing.length) throw invalidCsv(`The CSV header lacks ${missing.join(', ')}. Columns: sku (or product_id), item_code, price_cents, stock, eta_days.`, [{ line: 1, message: `Missing column(s): ${missing.join(', ')}` }]);

  const problems: ErrorDetail[] = [];
  const rows = records.map(({ record, info, raw }) => {
    // `info.lines` is where the row ends; a quoted field with line breaks starts it earlier.
    const breaks = (raw.match(/\n/g)?.length ?? 0) - (raw.endsWith('\n') ? 1 : 0);
    const line = info.lines - breaks;
    const ref = record[refColumn!] ?? '';
    const itemCode = record.item_code ?? '';
    if (!ref) problems.push({ line, param: refColumn!, message: `${refColumn} is empty.` });
    if (!itemCode || itemCode.length > 64) problems.push({ line, param: 'item_code', message: 'item_code must be 1 to 64 characters.' });
    return {
      line,
      ref,
      itemCode,
      priceCents: wholeNumber(record.price_cents ?? '', 'price_cents', line, problems),
      stock: wholeNumber(record.stock ?? '', 'stock', line, problems),
      etaDays: wholeNumber(record.eta_days ?? '', 'eta_days', line, problems),
    };
  });
  return { rows, problems };
}

/** The 400 for a catalog with bad rows: the message counts them, `details` lists each by line. */
export function badRows(problems: ErrorDetail[]) {
  const sorted = [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const lines = new Set(sorted.map((p) => p.line)).size;
  const first = sorted.slice(0, 3).map((p) => `line ${p.line}: ${p.message.replace(/\.$/, '')}`).join('; ');
  return invalidCsv(`${lines} row${lines === 1 ? ' is' : 's are'} invalid and nothing was applied (${first}${sorted.length > 3 ? '; …' : ''}).`, sorted.slice(0, 500));
}
