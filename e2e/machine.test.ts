import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { describeDetail, RISK_EVENTS } from '@examhall/contract';
import { browserAvailable, newPage } from './support/browser.js';
import { examIdsOf, loginAs, openDemoChecks } from './support/candidate.js';
import { staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { passMonitorChecks } from './support/monitor.js';
import { ADMIN, type TestServer } from './support/server.js';

/*
 * The machine the candidate sits at, in Chromium: a second screen (Chromium's screen.isExtended, emulated here, with
 * the `change` event a display being plugged in fires), a window shared instead of the whole screen, and the software
 * WebGL renderer headless Chromium runs on (SwiftShader), which the page reports as a sign of a virtual machine.
 */

interface StoredRisk {
  risk: number;
  category: number;
  detail: string;
}

function db<T>(server: TestServer, read: (db: Database.Database) => T): T {
  const handle = new Database(path.join(server.dataDir, 'examhall.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return read(handle);
  } finally {
    handle.close();
  }
}

/** The latest attempt's records of risk `key`. */
function risksOf(server: TestServer, key: keyof typeof RISK_EVENTS): StoredRisk[] {
  return db(server, (d) =>
    d
      .prepare(
        'SELECT risk, category, detail FROM risk_records WHERE attempt_id = (SELECT MAX(id) FROM attempts) AND risk = ? ORDER BY id',
      )
      .all(RISK_EVENTS[key].id),
  ) as StoredRisk[];
}

describe.runIf(browserAvailable())('the machine a candidate sits at', () => {
  const j = useJourney();

  it("raises a second screen at the check and during the exam, refuses a shared window, names a software renderer, and shows each on the proctor's timeline in words", async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl, { serviceWorkers: 'block' });
    await context.addInitScript(() => {
      const w = window as unknown as { e2eSetExtended: (v: boolean) => void; e2eShareWindow: boolean };
      // A laptop with a monitor plugged in: the desktop is extended until the test unplugs it.
      let extended = true;
      Object.defineProperty(Screen.prototype, 'isExtended', { configurable: true, get: () => extended });
      w.e2eSetExtended = (v) => {
        extended = v;
        (window.screen as unknown as EventTarget).dispatchEvent(new Event('change'));
      };
      // The first share picks a window instead of the whole screen.
      w.e2eShareWindow = true;
      const media = navigator.mediaDevices;
      const display = media.getDisplayMedia.bind(media);
      media.getDisplayMedia = async (c) => {
        const stream = await display(c);
        if (w.e2eShareWindow) {
          for (const track of stream.getVideoTracks()) {
            const real = track.getSettings.bind(track);
            track.getSettings = () => ({ ...real(), displaySurface: 'window' });
          }
        }
        return stream;
      };
    });
    await loginAs(page, j.server);
    await openDemoChecks(page);

    // At the check: the candidate is asked to disconnect the second screen, and the proctor gets the flag.
    await page.getByTestId('second-screen').waitFor();
    expect(await page.getByTestId('second-screen').textContent()).toContain('第二块屏幕');
    await expect.poll(() => risksOf(j.server, 'secondScreen').length, { timeout: 20_000 }).toBe(1);
    const [atCheck] = risksOf(j.server, 'secondScreen');
    expect(atCheck!.category).toBe(RISK_EVENTS.secondScreen.type);
    expect(describeDetail(atCheck!.detail)).toMatchObject({ key: 'secondScreen', params: { when: 'check' } });

    // Camera (opened, then skipped: the test pattern shows no face) and microphone.
    const current = page.getByTestId('current-step');
    await page.getByTestId('device-open').click();
    await page.getByTestId('stream-preview').waitFor();
    await page.getByTestId('step-skip').click();
    await expect.poll(() => current.getAttribute('data-step')).toBe('microphone');
    await page.getByTestId('device-open').click();
    await page.getByTestId('mic-level').waitFor();
    await page.getByTestId('step-pass').click();
    await expect.poll(() => current.getAttribute('data-step')).toBe('screenSharing');

    // With the camera open, the software renderer is reported, named, as a sign of a virtual machine: a flag, no stop.
    await expect.poll(() => risksOf(j.server, 'virtualMachine').length, { timeout: 20_000 }).toBe(1);
    const [machine] = risksOf(j.server, 'virtualMachine');
    const seen = describeDetail(machine!.detail);
    expect(seen).toMatchObject({
      key: 'virtualMachine',
      params: { signs: expect.arrayContaining(['softwareRenderer']) },
    });
    expect(seen?.key === 'virtualMachine' && seen.params.renderer).toMatch(/SwiftShader/);

    // A window shared instead of the whole screen is refused with a clear message; the whole screen passes.
    await page.getByTestId('device-open').click();
    const problem = page.getByTestId('device-problem');
    await problem.waitFor();
    expect(await problem.getAttribute('data-problem')).toBe('notWholeScreen');
    expect(await problem.textContent()).toContain('整个屏幕');
    expect(await page.getByTestId('stream-preview').count()).toBe(0);
    await page.evaluate(() => {
      (window as unknown as { e2eShareWindow: boolean }).e2eShareWindow = false;
    });
    await page.getByTestId('device-retry').click();
    await page.getByTestId('stream-preview').waitFor();
    await page.getByTestId('step-pass').click();
    await expect.poll(() => current.getAttribute('data-step')).not.toBe('screenSharing');

    // The second screen unplugged: the notice goes and the exam may start.
    await page.evaluate(() => (window as unknown as { e2eSetExtended: (v: boolean) => void }).e2eSetExtended(false));
    await page.getByTestId('second-screen').waitFor({ state: 'detached' });
    await passMonitorChecks(page);
    await page.waitForURL(/\/answer$/);
    await page.getByTestId('question').waitFor();

    // Plugged in again during the exam: raised once more, as a change.
    await page.evaluate(() => (window as unknown as { e2eSetExtended: (v: boolean) => void }).e2eSetExtended(true));
    await expect.poll(() => risksOf(j.server, 'secondScreen').length, { timeout: 20_000 }).toBe(2);
    const during = risksOf(j.server, 'secondScreen')[1]!;
    expect(describeDetail(during.detail)).toMatchObject({ key: 'secondScreen', params: { when: 'change' } });
    // The exam goes on, and the machine's signs were not raised twice.
    await page.getByTestId('question').waitFor();
    expect(risksOf(j.server, 'virtualMachine')).toHaveLength(1);
    const { examId } = examIdsOf(page);
    await context.close();

    // The proctor's timeline says each of them in words, with what was seen.
    const attemptId = db(j.server, (d) => (d.prepare('SELECT MAX(id) AS id FROM attempts').get() as { id: number }).id);
    const staff = await newPage(j.browser, j.server.baseUrl);
    await staffLogin(staff.page, ADMIN, `/admin/proctoring/${examId}`);
    const tile = staff.page.getByTestId(`proctor-tile-${attemptId}`);
    await tile.focus();
    await staff.page.keyboard.press('Enter');
    const timeline = staff.page.getByTestId('proctor-attempt').getByTestId('proctor-timeline');
    await timeline.getByText('连接了第二块屏幕（设备检测时）').waitFor();
    await timeline.getByText('连接了第二块屏幕（考试中接入）').waitFor();
    await timeline.getByText(/疑似虚拟机或远程桌面：软件图形渲染。显卡：.*SwiftShader/).waitFor();
    await staff.context.close();
  });
});
