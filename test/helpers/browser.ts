import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium; the tests never download a browser. */
export const CHROMIUM = process.env.ARBITER_CHROMIUM ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = fs.existsSync(CHROMIUM);

// CI installs Chromium and sets ARBITER_REQUIRE_BROWSER so that a missing browser fails there.
if (!HAS_CHROMIUM && process.env.ARBITER_REQUIRE_BROWSER) {
  throw new Error(`ARBITER_REQUIRE_BROWSER is set but ${CHROMIUM} does not exist`);
}
if (!HAS_CHROMIUM) {
  console.warn(`${CHROMIUM} not found: browser tests are skipped (apt-get install -y chromium to run them).`);
}

export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Closes a page, bounded. Chromium can acknowledge Target.closeTarget and drop it when the close
 * races a navigation commit (crbug.com/536385539), and `page.close()` then waits forever; after
 * 3 s the page is asked to close itself (CDP Page.close), which that race does not affect.
 */
export async function closePage(page: Page): Promise<void> {
  const closed = page.close();
  const settled = await Promise.race([
    closed.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 3000).unref()),
  ]);
  if (settled) return;
  await page.close({ runBeforeUnload: true }).catch(() => {});
  await closed;
}
