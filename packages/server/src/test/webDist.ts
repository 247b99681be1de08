/** A built web app in miniature, for tests of what the app serves beside the API. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A new folder holding a page that loads one asset, and that asset: WEB_DIST for a test app. */
export function miniWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/a.js"></script>');
  fs.writeFileSync(path.join(dir, 'assets', 'a.js'), 'console.log(1)');
  return dir;
}
