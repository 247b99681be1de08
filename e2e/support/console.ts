/** The staff console in a journey: logging in, and the antd controls its pages are made of. */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** A staff account's phone and password. */
export interface StaffAccount {
  phone: string;
  password: string;
}

/** Logs the page in as `account` through the console's login form and lands on `to` (a console path). */
export async function staffLogin(page: Page, account: StaffAccount, to = '/admin'): Promise<void> {
  await page.goto(`/admin/login?redirect=${encodeURIComponent(to)}`);
  await page.getByTestId('staff-phone').fill(account.phone);
  await page.getByTestId('staff-password').fill(account.password);
  await page.getByTestId('staff-login-submit').click();
  await page.getByTestId('admin-console').waitFor();
  await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe(to);
}

/** The text input of a field: the element itself when it is one, else the input inside it (antd wrappers). */
export function inputOf(field: Locator): Locator {
  return field.locator('xpath=self::input | self::textarea | .//input').first();
}

/** Opens an antd Select and clicks the option showing `text` (a short list: every option is rendered). */
export async function chooseOption(page: Page, select: Locator, text: string | RegExp): Promise<void> {
  await select.click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  await expect.poll(() => select.textContent()).toMatch(text);
}

/**
 * Picks the option at `index` of an antd Select that shows only part of a long list (a virtual list renders
 * the options in view): it opens on the current value, which must be the first option, and moves down.
 */
export async function chooseByIndex(page: Page, select: Locator, index: number): Promise<void> {
  await select.click();
  await page.locator('.ant-select-dropdown:visible').waitFor();
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/**
 * Adds values to an antd Select in tags mode, each typed and confirmed with Enter, then closes its list with
 * Escape (Tab would toggle the active option: the value just added would be taken out again).
 */
export async function addTags(page: Page, select: Locator, values: readonly string[]): Promise<void> {
  await select.click();
  for (const value of values) {
    await page.keyboard.type(value);
    await page.keyboard.press('Enter');
    await select.locator('.ant-select-selection-item', { hasText: value }).first().waitFor();
  }
  await page.keyboard.press('Escape');
  await expect.poll(() => select.locator('.ant-select-selection-item').allTextContents()).toEqual(values);
}
