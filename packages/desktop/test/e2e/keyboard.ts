import type { Page } from 'playwright-core';

/** The focused element's name as a user hears it: its aria-label, its label's text, or its own text. */
async function focusedName(page: Page): Promise<string> {
  // A string: this package's tests compile without the DOM library.
  return page.evaluate(`(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return '';
    return (element.getAttribute('aria-label') ?? element.labels?.[0]?.textContent ?? element.textContent ?? '').trim();
  })()`);
}

/**
 * Presses Tab (Shift+Tab when `backward`) until the focused element's name matches, as a
 * keyboard user moves through the page; fails after `limit` presses.
 */
export async function tabTo(page: Page, name: string | RegExp, options: { backward?: boolean; limit?: number } = {}): Promise<void> {
  const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
  const seen: string[] = [];
  for (let press = 0; press < (options.limit ?? 120); press++) {
    const current = await focusedName(page);
    if (matches(current)) return;
    seen.push(current);
    await page.keyboard.press(options.backward ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`no focusable element named ${String(name)} within reach; focus went through: ${seen.slice(-20).join(' | ')}`);
}
