/** A US ZIP code, 5 digits or ZIP+4: the one rule for every shipping address (patients, public intake, flows). */
export const POSTAL_CODE = /^\d{5}(-\d{4})?$/;
