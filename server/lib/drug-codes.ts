/**
 * A product's drug codes (DESIGN decision 42). An NDC is written three ways on labels, each 10 digits in three
 * dashed segments (labeler-product-package: 4-4-2, 5-3-2, 5-4-1), and once as 11 digits (5-4-2, the HIPAA form
 * that FHIR's `http://hl7.org/fhir/sid/ndc` and pharmacy claims use). Every form is kept as 11 digits 5-4-2: the
 * short segment padded with a leading zero. Ten digits without dashes are refused: which segment is short
 * cannot be known. An RxCUI is RxNorm's concept id, digits only.
 */
export const NDC_INPUT = /^(\d{4}-\d{4}-\d{2}|\d{5}-\d{3}-\d{2}|\d{5}-\d{4}-\d{1,2}|\d{11})$/;
export const NDC_INPUT_RULE = 'an NDC: 10 digits with dashes (4-4-2, 5-3-2 or 5-4-1) or 11 digits (5-4-2, dashes optional)';
export const RXCUI = /^[1-9]\d{0,9}$/;
export const RXCUI_RULE = 'an RxCUI: RxNorm concept id, 1 to 10 digits';

/** The 11-digit 5-4-2 form of an NDC in any accepted form; null when it is none of them. */
export function normalizeNdc(input: string): string | null {
  const value = input.trim();
  if (!NDC_INPUT.test(value)) return null;
  const digits = value.replace(/-/g, '');
  if (!value.includes('-')) return `${digits.slice(0, 5)}-${digits.slice(5, 9)}-${digits.slice(9)}`;
  const [labeler, product, pack] = value.split('-') as [string, string, string];
  return `${labeler.padStart(5, '0')}-${product.padStart(4, '0')}-${pack.padStart(2, '0')}`;
}

/** `normalizeNdc` for optional fields: undefined stays unsent, null clears. The schema has already checked the form. */
export const ndcField = (v: string | null | undefined): string | null | undefined => (v == null ? v : (normalizeNdc(v) ?? v));
