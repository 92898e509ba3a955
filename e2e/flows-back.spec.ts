import { expect, test, type Page } from '@playwright/test';
import { clinicWithFlow, expectAccessible, fillContact, FLOW_COPY, watchPage } from './flows-world';

/**
 * Issue 23 item 3, going back: every step of the hosted flow but the first (and the outcome) has a "Back"
 * button after its primary action. Back shows the previous step with what the patient answered there (held in
 * the page's memory, never in storage), focuses its heading and moves the resume point, so a refresh lands on
 * that step, filled in again from the session's own answers (issue 50, DESIGN decision 44). Saving it again
 * replaces the answers on the server. Back on the page is the browser's Back (an entry per step, no new one).
 */

let embedKey: string;

test.beforeAll(async () => {
  const clinic = await clinicWithFlow('Back Bay Weight Clinic');
  embedKey = await clinic.embedKey([]);
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const pregnant = (page: Page) => page.getByRole('group', { name: 'Are you pregnant or breastfeeding?' });

/** What the page keeps in the browser's storage: one resume point, ids only. */
async function expectStorageWithoutAnswers(page: Page, stepId: string | null) {
  const stored = await page.evaluate(() => ({
    local: Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])),
    session: Object.keys(sessionStorage),
  }));
  expect(stored.session).toEqual([]);
  expect(Object.keys(stored.local)).toEqual([`fulfillmentrail:flow:${embedKey}`]);
  const point = JSON.parse(stored.local[`fulfillmentrail:flow:${embedKey}`]!);
  expect(Object.keys(point).sort()).toEqual(['sessionId', 'stepId']);
  expect(point.stepId).toBe(stepId);
  expect(JSON.stringify(stored)).not.toMatch(/1984|energy|true|false|Lisinopril|Whitfield|example\.org/);
}

test('a patient goes back, finds the earlier answers, changes one and is eligible', async ({ page }) => {
  const watched = watchPage(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/f/${embedKey}`);
  await expect(heading(page, FLOW_COPY.headline)).toBeVisible();
  // The first step has nowhere to go back to.
  await expect(button(page, 'Back')).toHaveCount(0);
  await button(page, 'Start').click();

  await expect(heading(page, 'What brings you here?')).toBeFocused();
  await page.getByRole('group', { name: 'Main reason' }).getByLabel('More energy').check();
  await button(page, 'Continue').click();

  await expect(heading(page, 'About you')).toBeFocused();
  await page.getByLabel('Date of birth').fill('1984-06-02');
  await pregnant(page).getByLabel('Yes').check();
  await button(page, 'Continue').click();

  await expect(heading(page, 'Your medications')).toBeFocused();
  await expect(page.getByText('Step 4 of 6')).toBeVisible();
  await expectAccessible(page, 'medications with Back');
  await page.screenshot({ path: 'test-results/flow-back-390.png', fullPage: true });
  // Keyboard: Back comes right after the primary action, and Enter on it goes back (the browser's Back: no entry is added).
  const historyLength = await page.evaluate(() => history.length);
  await button(page, 'Continue').focus();
  await page.keyboard.press('Tab');
  await expect(button(page, 'Back')).toBeFocused();
  await page.keyboard.press('Enter');

  // The earlier step, as the patient left it, with the focus on its heading.
  await expect(heading(page, 'About you')).toBeFocused();
  await expect(page.getByText('Step 3 of 6')).toBeVisible();
  await expect(page.getByLabel('Date of birth')).toHaveValue('1984-06-02');
  await expect(pregnant(page).getByLabel('Yes')).toBeChecked();
  expect(await page.evaluate(() => history.length)).toBe(historyLength);
  await expectStorageWithoutAnswers(page, 'about');

  // Back again, then forward: the pages already answered are walked through one by one, still filled in.
  await button(page, 'Back').click();
  await expect(heading(page, 'What brings you here?')).toBeFocused();
  await expect(page.getByRole('group', { name: 'Main reason' }).getByLabel('More energy')).toBeChecked();
  await expectAccessible(page, 'quiz after Back');
  await button(page, 'Continue').click();
  await expect(heading(page, 'About you')).toBeFocused();
  await expect(pregnant(page).getByLabel('Yes')).toBeChecked();

  // The answer that would disqualify is changed; the server replaces what it held for the step.
  await pregnant(page).getByLabel('No').check();
  await button(page, 'Continue').click();
  await expect(heading(page, 'Your medications')).toBeFocused();

  // A refresh after going back lands on the step the patient is on, filled in: the server gives the session its
  // own answers back (the browser stores none).
  await button(page, 'Back').click();
  await expect(heading(page, 'About you')).toBeFocused();
  await expect(pregnant(page).getByLabel('No')).toBeChecked();
  await expectStorageWithoutAnswers(page, 'about');
  await page.reload();
  await expect(heading(page, 'About you')).toBeVisible();
  await expect(page.getByText('Step 3 of 6')).toBeVisible();
  await expect(page.getByLabel('Date of birth')).toHaveValue('1984-06-02');
  await expect(pregnant(page).getByLabel('No')).toBeChecked();
  await expect(button(page, 'Back')).toBeVisible();
  await button(page, 'Continue').click();

  await expect(heading(page, 'Your medications')).toBeFocused();
  await page.getByRole('group', { name: 'Do you take any other medication?' }).getByLabel('No').check();
  await button(page, 'Continue').click();
  await expect(heading(page, 'Consent to a telehealth review')).toBeFocused();
  await page.getByLabel('I have read the text above and agree to it').check();
  await button(page, 'I agree, continue').click();

  await expect(heading(page, 'Where can the clinic reach you?')).toBeFocused();
  await fillContact(page, { name: 'Dana Whitfield', email: `dana-back-${Date.now()}@example.org`, dateOfBirth: '1984-06-02' });
  await button(page, 'See my result').click();

  await expect(heading(page, FLOW_COPY.eligibleTitle)).toBeFocused();
  await expect(button(page, 'Back')).toHaveCount(0);
  await expectStorageWithoutAnswers(page, null);
  expect(watched.outside).toEqual([]);
  expect(watched.violations).toEqual([]);
});

test('going back from the contact step finds consent given and the medications typed in this visit', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/f/${embedKey}`);
  await button(page, 'Start').click();
  await page.getByRole('group', { name: 'Main reason' }).getByLabel('Better health').check();
  await button(page, 'Continue').click();
  await expect(heading(page, 'About you')).toBeFocused();
  await page.getByLabel('Date of birth').fill('1990-01-15');
  await pregnant(page).getByLabel('No').check();
  await button(page, 'Continue').click();
  await expect(heading(page, 'Your medications')).toBeFocused();
  await page.getByRole('group', { name: 'Do you take any other medication?' }).getByLabel('Yes').check();
  await page.getByLabel('Which medications do you take?').fill('Lisinopril');
  await button(page, 'Continue').click();
  await expect(heading(page, 'Consent to a telehealth review')).toBeFocused();
  await page.getByLabel('I have read the text above and agree to it').check();
  await button(page, 'I agree, continue').click();
  await expect(heading(page, 'Where can the clinic reach you?')).toBeFocused();
  await expectAccessible(page, 'contact with Back');

  await button(page, 'Back').click();
  await expect(heading(page, 'Consent to a telehealth review')).toBeFocused();
  await expect(page.getByLabel('I have read the text above and agree to it')).toBeChecked();
  await button(page, 'Back').click();
  await expect(heading(page, 'Your medications')).toBeFocused();
  await expect(page.getByLabel('Which medications do you take?')).toHaveValue('Lisinopril');
  await expectStorageWithoutAnswers(page, 'medications');
  await button(page, 'Continue').click();
  await expect(heading(page, 'Consent to a telehealth review')).toBeFocused();
  await button(page, 'I agree, continue').click();

  await expect(heading(page, 'Where can the clinic reach you?')).toBeFocused();
  await fillContact(page, { name: 'Sam Ortega', email: `sam-back-${Date.now()}@example.org`, dateOfBirth: '1990-01-15' });
  await button(page, 'See my result').click();
  await expect(heading(page, FLOW_COPY.eligibleTitle)).toBeFocused();
});
