/** Optional error reporting and page-view analytics; each is off while its address is empty. */

function post(url: string, payload: Record<string, unknown>): void {
  const body = JSON.stringify(payload);
  // sendBeacon survives page unloads and sends text/plain, which needs no CORS preflight.
  if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, body)) return;
  void fetch(url, { method: 'POST', body, keepalive: true, mode: 'no-cors' }).catch(() => undefined);
}

let reportUrl = '';
let installed = false;
let lastReport = 0;

/** Starts (or stops, with an empty address) sending uncaught errors to `url`. */
export function setErrorReporting(url: string): void {
  reportUrl = url;
  if (installed || !url) return;
  installed = true;
  window.addEventListener('error', (event) => {
    report('error', event.error instanceof Error ? event.error : new Error(event.message));
  });
  window.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    const reason: unknown = event.reason;
    report('unhandledrejection', reason instanceof Error ? reason : new Error(String(reason)));
  });
}

function report(kind: string, error: Error): void {
  if (!reportUrl) return;
  // A render loop can throw hundreds of times a second; one report a second is enough to see it.
  const now = Date.now();
  if (now - lastReport < 1_000) return;
  lastReport = now;
  post(reportUrl, {
    kind,
    message: error.message,
    stack: error.stack ?? '',
    page: window.location.href,
    user_agent: navigator.userAgent,
    time: now,
  });
}

/** Records one page view at `analyticsUrl` (nothing when it is empty). */
export function trackPageView(analyticsUrl: string, path: string, lang: string): void {
  if (!analyticsUrl) return;
  post(analyticsUrl, { type: 'pageview', path, referrer: document.referrer, lang, time: Date.now() });
}
