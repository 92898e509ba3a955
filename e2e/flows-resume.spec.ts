import { expect, test, type Page } from '@playwright/test';
import { clinicWithFlow, expectAccessible, fillContact, FLOW_COPY, watchPage } from './flows-world';

/**
 * Issue 50 item 1 (DESIGN decision 44): a patient who reloads, or whose phone discards the tab, resumes where
 * they were and sees what they answered. Back shows the earlier pages filled in (the session's own answers come
 * back from the server for a while; the browser stores ids only) and the contact step is prefilled again; the
 * browser's own Back and Forward move between steps (an entry per step), Back on the flow's first entry leaves
 * the page, and leaving then returning resumes. A date of birth that differs from the one answered earlier is
 * refused with a message naming the step where it was answered, and a way there.
 */

let embedKey: string;

test.beforeAll(async () => {
  const clinic = await clinicWithFlow('Resume Weight Clinic');
  embedKey = await clinic.embedKey([]);
});

const DOB = '1984-06-02';
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const pregnant = (page: Page) => page.getByRole('group', { name: 'Are you pregnant or breastfeeding?' });
const takesMeds = (page: Page) => page.getByRole('group', { name: 'Do you take any other medication?' });
const consentBox = (page: Page) => page.getByLabel('I have read the text above and agree to it');

/** The medications page as the patient left it. */
async function expectMedicationsFilled(page: Page) {
  await expect(heading(page, 'Your medications')).toBeVisible();
  await expect(page.getByText('Step 4 of 6')).toBeVisible();
  await expect(takesMeds(page).getByLabel('Yes')).toBeChecked();
  await expect(page.getByLabel('Which medications do you take?')).toHaveValue('Lisinopril');
}

/** The "About you" page as the patient left it. */
async function expectAboutFilled(page: Page, dateOfBirth = DOB) {
  await expect(heading(page, 'About you')).toBeVisible();
  await expect(page.getByText('Step 3 of 6')).toBeVisible();
  await expect(page.getByLabel('Date of birth')).toHaveValue(dateOfBirth);
  await expect(pregnant(page).getByLabel('No')).toBeChecked();
}

/** What the browser keeps: the session id and the step, per key; never an answer (those come back from the server). */
async function expectNoAnswerStored(page: Page) {
  const stored = await page.evaluate(() => ({
    local: Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])),
    session: Object.keys(sessionStorage),
    history: JSON.stringify(history.state),
  }));
  expect(stored.session).toEqual([]);
  expect(Object.keys(stored.local)).toEqual([`fulfillmentrail:flow:${embedKey}`]);
  expect(JSON.stringify(stored)).not.toMatch(/1984|1990|Lisinopril|energy|Whitfield|example\.org/);
}

async function answerUpToContact(page: Page) {
  await button(page, 'Start').click();
  await expect(heading(page, 'What brings you here?')).toBeFocused();
  await page.getByRole('group', { name: 'Main reason' }).getByLabel('More energy').check();
  await button(page, 'Continue').click();
  await expect(heading(page, 'About you')).toBeFocused();
  await page.getByLabel('Date of birth').fill(DOB);
  await pregnant(page).getByLabel('No').check();
  await button(page, 'Continue').click();
  await expect(heading(page, 'Your medications')).toBeFocused();
  await takesMeds(page).getByLabel('Yes').check();
  await page.getByLabel('Which medications do you take?').fill('Lisinopril');
  await button(page, 'Continue').click();
  await expect(heading(page, 'Consent to a telehealth review')).toBeFocused();
  await consentBox(page).check();
  await button(page, 'I agree, continue').click();
  await expect(heading(page, 'Where can the clinic reach you?')).toBeFocused();
}

for (const width of [390, 1280]) {
  test(`at ${width} px: after a reload Back finds every page filled in, the browser's Back moves one step, leaving and returning resumes`, async ({ page }) => {
    const watched = watchPage(page);
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`/f/${embedKey}`);
    await expect(heading(page, FLOW_COPY.headline)).toBeVisible();
    // The browser's Back on the flow's first entry leaves the page; Forward comes back to it.
    await page.goBack();
    await expect(page).toHaveURL('about:blank');
    await page.goForward();
    await expect(heading(page, FLOW_COPY.headline)).toBeVisible();

    await answerUpToContact(page);
    await expect(page.getByLabel('Date of birth')).toHaveValue(DOB);

    // A reload (or a tab the phone discarded): the same step, the contact step prefilled again.
    await page.reload();
    await expect(heading(page, 'Where can the clinic reach you?')).toBeVisible();
    await expect(page.getByText('Step 6 of 6')).toBeVisible();
    await expect(page.getByLabel('Date of birth')).toHaveValue(DOB);
    await expectNoAnswerStored(page);
    await expectAccessible(page, `contact after a reload at ${width}`);

    // Back on the page, then the browser's own Back: one step each, every page as the patient left it.
    await button(page, 'Back').click();
    await expect(heading(page, 'Consent to a telehealth review')).toBeFocused();
    await expect(consentBox(page)).toBeChecked();
    await page.goBack();
    await expect(heading(page, 'Your medications')).toBeFocused();
    await expectMedicationsFilled(page);
    await page.goBack();
    await expect(heading(page, 'About you')).toBeFocused();
    await expectAboutFilled(page);
    await page.goBack();
    await expect(heading(page, 'What brings you here?')).toBeFocused();
    await expect(page.getByRole('group', { name: 'Main reason' }).getByLabel('More energy')).toBeChecked();
    await expectAccessible(page, `quiz after the browser's Back at ${width}`);
    await page.screenshot({ path: `test-results/flow-resume-back-${width}.png`, fullPage: true });
    // Forward again, through pages already answered.
    await page.goForward();
    await expectAboutFilled(page);
    await page.goForward();
    await expectMedicationsFilled(page);

    // Leaving for another page and typing the address again: the same step, still filled in.
    await page.goto('about:blank');
    await page.goto(`/f/${embedKey}`);
    await expectMedicationsFilled(page);
    // Leaving and coming back with the browser's Back: the same.
    await page.goto('about:blank');
    await page.goBack();
    await expectMedicationsFilled(page);
    await expectNoAnswerStored(page);
    await expectAccessible(page, `medications after returning at ${width}`);

    await button(page, 'Continue').click();
    await expect(heading(page, 'Consent to a telehealth review')).toBeFocused();
    await expect(consentBox(page)).toBeChecked();
    await button(page, 'I agree, continue').click();
    await expect(heading(page, 'Where can the clinic reach you?')).toBeFocused();
    await expect(page.getByLabel('Date of birth')).toHaveValue(DOB);
    await fillContact(page, { name: 'Dana Whitfield', email: `dana-resume-${width}-${Date.now()}@example.org`, dateOfBirth: DOB });
    await button(page, 'See my result').click();
    await expect(heading(page, FLOW_COPY.eligibleTitle)).toBeFocused();
    // The run is over: a reload shows the outcome, and the server gives nothing back any more.
    await page.reload();
    await expect(heading(page, FLOW_COPY.eligibleTitle)).toBeVisible();
    expect(watched.outside).toEqual([]);
    expect(watched.violations).toEqual([]);
  });

  test(`at ${width} px: a date of birth that differs from the earlier answer names its step and leads there, after a reload too`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/f/${embedKey}`);
    await answerUpToContact(page);
    // The background of the issue: after a reload the earlier answer was out of sight.
    await page.reload();
    await expect(heading(page, 'Where can the clinic reach you?')).toBeVisible();
    await fillContact(page, { name: 'Rowan Whitfield', email: `rowan-resume-${width}-${Date.now()}@example.org`, dateOfBirth: '1990-01-15' });
    await button(page, 'See my result').click();

    const summary = page.getByRole('alert', { name: /problem/ });
    await expect(summary).toBeFocused();
    await expect(summary).toContainText('Date of birth – This differs from your answer on the step “About you”.');
    await expect(page.locator('#contact-dateOfBirth-error')).toContainText('“About you”');
    await expect(page.getByLabel('Date of birth')).toHaveAttribute('aria-invalid', 'true');
    const way = button(page, 'Go to “About you”');
    await expect(way).toBeVisible();
    await expectAccessible(page, `a date of birth mismatch at ${width}`);
    await page.screenshot({ path: `test-results/flow-resume-mismatch-${width}.png`, fullPage: true });

    // The way there: the earlier answer, in sight; the browser's Back returns to the contact step.
    await way.click();
    await expect(heading(page, 'About you')).toBeFocused();
    await expectAboutFilled(page);
    await page.goBack();
    await expect(heading(page, 'Where can the clinic reach you?')).toBeFocused();
    await button(page, 'Back').click();
    await button(page, 'Back').click();
    await expect(heading(page, 'Your medications')).toBeFocused();
    await button(page, 'Back').click();
    await expect(heading(page, 'About you')).toBeFocused();

    // The patient corrects the earlier answer and walks forward; the contact step now opens with it.
    await page.getByLabel('Date of birth').fill('1990-01-15');
    await button(page, 'Continue').click();
    await expectMedicationsFilled(page);
    await button(page, 'Continue').click();
    await button(page, 'I agree, continue').click();
    await expect(heading(page, 'Where can the clinic reach you?')).toBeFocused();
    await expect(page.getByLabel('Date of birth')).toHaveValue('1990-01-15');
    await fillContact(page, { name: 'Rowan Whitfield', email: `rowan-resume-${width}-${Date.now()}@example.org`, dateOfBirth: '1990-01-15' });
    await button(page, 'See my result').click();
    await expect(heading(page, FLOW_COPY.eligibleTitle)).toBeFocused();
  });
}
