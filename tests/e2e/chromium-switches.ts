// The Chromium features the browser tests turn off (playwright.config.ts).
//
// Chromium obeys only the last --disable-features it is given, so this list repeats the one
// Playwright passes itself (playwright-core's chromiumSwitches.ts) before adding ours;
// tests/e2e/browser-switches.spec.ts fails when Playwright's own list grows past it.
const PLAYWRIGHTS_OWN = [
  "AimEnabled",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsFirstBalancedModeAutoEnable",
  "HttpsUpgrades",
  "LensOverlay",
  "MediaRouter",
  "NetworkTimeServiceQuerying",
  "OptimizationHints",
  "PaintHolding",
  "PreconnectToSearch",
  "TcpPortRandomizationWin",
  "ThirdPartyStoragePartitioning",
  "msEdgeUpdateLaunchServicesPreferredVersion",
  "msForceBrowserSignIn",
];

// Every new browser context's window preloads the address bar's two popups as WebUI pages
// (chrome://omnibox-popup.top-chrome/ and its AI-mode variant) in a renderer of their own, which a
// headless browser never shows: about 1.4 s of CPU per context, nearly a quarter of Chromium's CPU for
// a sign-in, the board, a task and Settings, and every test opens a context (docs/testing.md).
export const UNSHOWN_POPUPS = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

export const DISABLED_FEATURES = [...PLAYWRIGHTS_OWN, ...UNSHOWN_POPUPS];
