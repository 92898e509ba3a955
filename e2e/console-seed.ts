import { expect, type Browser } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { api, base, ops, PASSWORD, signInWithPassword } from './helpers';

export { api };

/** A call to /v1 with a tenant key, for setup the specs do not click through. */
export interface SeededClinic {
  tenantName: string;
  adminEmail: string;
  providerEmail: string;
  developerEmail: string;
  orderId: string;
  patientId: string;
  /** A questionnaire key with an approved v1 and a pending v2. */
  questionnaireKey: string;
  /** A submission pending review, eligible with a review flag. */
  submissionId: string;
}

/**
 * The intake pages' data: a questionnaire whose v1 a second provider (enrolled in two-factor through the
 * API, so the provider who signs in to the console stays password-only) approved, a pending v2, and a
 * submission of the patient waiting for review.
 */
async function seedIntake(tenantId: string, key: string, productId: string, patientId: string, stamp: string) {
  const approverEmail = `approver-${stamp}@clinic-with-a-long-domain.test`;
  await ops(`/ops/tenants/${tenantId}/users`, { email: approverEmail, password: PASSWORD, role: 'provider', name: 'Dr. Wilhelmina Abernathy-Okonkwo', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: approverEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  const protocol = await api<{ id: string }>(key, 'POST', '/protocols', { name: 'Semaglutide starter with cyanocobalamin', items: [{ productId, quantity: 4, sig: 'Inject 0.25 mg subcutaneously once weekly', refills: 2 }] });
  const questionnaireKey = 'weight-management-comprehensive-consultation';
  const doc = {
    key: questionnaireKey,
    title: 'Comprehensive weight management consultation for compounded semaglutide',
    protocolId: protocol.id,
    items: [
      { linkId: 'dob', text: 'What is your date of birth?', type: 'date', required: true },
      { linkId: 'height', text: 'How tall are you?', type: 'integer', required: true, min: 36, max: 96, unit: 'in' },
      { linkId: 'weight', text: 'How much do you weigh?', type: 'decimal', required: true, min: 60, max: 800, unit: 'lb' },
      { linkId: 'conditions', text: 'Do you have any of these conditions?', type: 'multi_choice', required: true, options: [{ value: 'hypertension', label: 'High blood pressure' }, { value: 'none', label: 'None of these' }] },
      { linkId: 'pregnant', text: 'Are you pregnant, breastfeeding, or planning to become pregnant in the next three months?', type: 'boolean', required: true },
    ],
    rules: [
      { id: 'bmi_too_low_for_treatment_under_the_clinic_protocol', when: { any: [{ q: 'bmi(height, weight)', op: 'lt', value: 27 }, { all: [{ q: 'bmi(height, weight)', op: 'lt', value: 30 }, { not: { q: 'conditions', op: 'in', value: ['hypertension'] } }] }] }, effect: 'disqualify', patientMessage: 'Medication is prescribed for a BMI of 30 or more, or 27 or more with a weight-related condition.' },
      { id: 'pregnancy', when: { q: 'pregnant', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'This medication must not be used during pregnancy or breastfeeding.' },
      { id: 'senior_dose_review', when: { q: 'age(dob)', op: 'gte', value: 40 }, effect: 'review_flag', patientMessage: 'A provider will review your dose plan.' },
    ],
  };
  const v1 = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', doc);
  await api(login.accessToken, 'POST', `/intake/questionnaires/${v1.id}/approve`, { note: 'Reviewed by the medical director against the current label and the clinic protocol.' });
  const submission = await api<{ id: string }>(key, 'POST', '/intake/submissions', {
    questionnaireKey,
    patientId,
    answers: { dob: '1985-04-12', height: 66, weight: 220, conditions: ['hypertension'], pregnant: false },
  });
  await api(key, 'POST', '/intake/questionnaires', { ...doc, items: [...doc.items, { linkId: 'gallbladder', text: 'Have you had gallbladder disease or gallstones?', type: 'boolean', required: true }] });
  return { questionnaireKey, submissionId: submission.id };
}

/**
 * A clinic with something on every page, and with the long, unbroken names that stretch a narrow layout:
 * a long clinic name and e-mails, a patient and a product with long names, a webhook with a long URL.
 */
export async function seedClinic(): Promise<SeededClinic> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenantName = 'Northwestern Integrated Telehealth and Compounding Partners Clinic';
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: tenantName });
  const person = (role: string) => `${role}.with.a.rather.long.mailbox.name-${stamp}@clinic-with-a-long-domain.test`;
  const adminEmail = person('admin');
  const providerEmail = person('provider');
  const developerEmail = person('developer');
  await ops(`/ops/tenants/${tenant.id}/users`, { email: adminEmail, password: PASSWORD, role: 'admin' });
  await ops(`/ops/tenants/${tenant.id}/users`, { email: developerEmail, password: PASSWORD, role: 'developer' });
  await ops(`/ops/tenants/${tenant.id}/users`, {
    email: providerEmail,
    password: PASSWORD,
    role: 'provider',
    name: 'Dr. Evangelina Montgomery-Castellanos',
    npi: '1234567893',
    npiVerified: true,
    licensedStates: ['CA'],
  });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e shell setup' });

  const product = await api<{ id: string }>(key, 'POST', '/products', {
    name: 'Semaglutide compounded with cyanocobalamin, multi-dose vial',
    sku: 'SEMA-B12-025-MULTIDOSE',
    form: 'injection',
    strength: '0.25 mg',
    rxRequired: true,
    active: true,
  });
  const pharmacy = await api<{ id: string }>(key, 'POST', '/pharmacies', {
    name: 'Sunrise Compounding and Specialty Pharmacy of Southern California',
    adapter: 'simulated',
    settings: { acceptAfterSeconds: 3600, shipAfterSeconds: 3600, deliverAfterSeconds: 7200 },
    states: ['CA'],
  });
  const csv = 'sku,item_code,price_cents,stock,eta_days\nSEMA-B12-025-MULTIDOSE,SUN-0,12900,100,3';
  const catalog = await api<{ id: string }>(key, 'POST', `/catalogs/upload?pharmacyConnectionId=${pharmacy.id}`, csv, 'text/csv');
  await api(key, 'PATCH', `/catalogs/${catalog.id}/approve`, {});
  const patient = await api<{ id: string }>(key, 'POST', '/patients', {
    firstName: 'Maximiliana',
    lastName: 'Vandenberghe-Oyelaran',
    dateOfBirth: '1985-04-12',
    sex: 'female',
    address: { line1: '1234 Extraordinarily Long Boulevard Name, Suite 5600', city: 'San Diego', state: 'CA', postalCode: '92101' },
  });
  const order = await api<{ id: string }>(key, 'POST', '/orders', {
    patientId: patient.id,
    items: [{ productId: product.id, quantity: 4, sig: 'Inject 0.25 mg subcutaneously once weekly on the same day each week', refills: 2 }],
  });
  await api(key, 'POST', '/developer/webhooks', { url: `${base()}/webhook-sink/a-rather-long-path/that-keeps-going/without-any-break-at-all-0123456789`, events: [] });
  await api(key, 'POST', '/developer/keys', { name: 'Read-only key for the pharmacy dashboard integration', keyType: 'restricted', scopes: ['orders.read'] });
  const intake = await seedIntake(tenant.id, key, product.id, patient.id, stamp);
  return { tenantName, adminEmail, providerEmail, developerEmail, orderId: order.id, patientId: patient.id, ...intake };
}

/** Signs in once and keeps the cookies, so each page's test opens a fresh browser context already signed in. */
export async function signedInState(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithPassword(page, email);
  // Password hashing and a cold server can make the first sign-in slow.
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
  const state = await context.storageState();
  await context.close();
  return state;
}
