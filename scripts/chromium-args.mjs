// How every browser test and benchmark starts Debian's Chromium (CHROMIUM_PATH overrides the path):
// headless, no sandbox (tests run as root in containers), and nothing that reaches the internet.
// Used by e2e/playwright.config.ts and bench/support.ts.

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chromium's headless mode runs the whole browser window, and since version 14x its address
  // bar's suggestion popups are web pages of their own (chrome://omnibox-popup.top-chrome/ and its
  // AI Mode page), rendered in a renderer beside the tested page and redrawn on every navigation
  // although headless never shows them. They cost about a third of the browser suite's Chromium
  // CPU (docs/performance.md#how-long-the-tests-take). Chromium merges this list with the one
  // Playwright passes.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];
