/**
 * The job that sends one patient notice. The database writes it (trigger `patient_notices_enqueue`, migration
 * 0033) whenever a notice row is inserted, so this name is written there too.
 */
export const NOTICE_JOB = 'patient_notice.send';
