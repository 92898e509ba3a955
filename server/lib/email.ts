/**
 * One spelling of a person's e-mail address (issue 49): surrounding space dropped and lower-cased. Every place
 * that stores a patient's or a user's address, and every place that matches one, goes through this, so
 * `Victim@Example.com` and `victim@example.com` are one person and one sign-in, never two records.
 * (The local part is case-sensitive in RFC 5321 in theory; no mail system people use treats it so.)
 */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
