import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

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
