import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

const base = () => process.env.E2E_BASE_URL!;

/** Calls the ops API of the server under test, as an operator would when onboarding a clinic. */
export async function ops<T = any>(pathname: string, body: unknown): Promise<T> {
  const res = await fetch(`${base()}/v1${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.E2E_OPS_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json() as Promise<T>;
}

export function newestMailTo(address: string): { link: string } {
  const dir = process.env.E2E_MAIL_DIR!;
  const mails = fs
    .readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
    .filter((m) => m.to === address);
  return mails[mails.length - 1];
}

export async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
}
