/**
 * The risk detectors of the exam page (docs/contract.md#risk-events): each watches one thing the browser can see
 * (leaving the page, leaving fullscreen, pastes, the media tracks, the phone, page translation, the
 * account) and raises the catalogue's event. Records go through the exam's outbox, so they carry a
 * client id, survive a lost network and a reload, and reach /monitor/record-risk in order; what is
 * still waiting when the page goes away is sent once more with sendBeacon to /monitor/fast-record-risk
 * (the same client id, so the server keeps one record).
 *
 * The detectors are plain functions that answer their cleanup; `useRiskDetectors` wires them to the page.
 */
import {
  detail,
  ExamPhase,
  RISK_EVENTS,
  type CallDef,
  type RecordRiskBody,
  type RecordRiskData,
  type RiskEventKey,
  userCalls,
  monitorCalls,
} from '@examhall/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { encodeBody, isApiError, readResponse, request, urlFor } from '../api/client.js';
import { currentAuth } from '../api/cookies.js';
import { serverNow } from '../exam/clock.js';
import { currentCandidate } from '../session/owner.js';
import type { Outbox, OutboxEntry } from '../exam/outbox.js';
import { onRiskRecorded } from '../exam/session.js';
import { getStreams, subscribeStreams, type ProctorStreams } from './streams.js';

/** Raises one risk event with a detail for the proctor. */
export type Raise = (risk: RiskEventKey, detail: string) => void;

/** Stops a detector. */
export type Stop = () => void;

/** Seconds the page may be gone (closed, reloaded) before coming back counts as a screen switch. */
export const CLOSED_PAGE_SWITCH_MS = 15_000;
/** How long a track may stay muted before it counts as abnormal: a moment's silence of the source is not. */
export const MUTE_GRACE_MS = 3_000;
/** How often the logged-in account is read again (besides every return to the page). */
export const ACCOUNT_CHECK_MS = 30_000;

const isEditable = (el: EventTarget | null): boolean =>
  el instanceof HTMLElement &&
  (el.isContentEditable || el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement);

/**
 * Screen switch (1): the page is hidden or the window loses focus to something outside the page.
 * One departure is one event however many signals it gives (blur then hidden); the next one counts
 * only after the candidate is back (visible and focused). A file chooser opened by the page, focus
 * moving into one of the page's own frames, and the page unloading are not departures.
 */
export function watchScreenSwitch(raise: Raise): Stop {
  let away = false;
  let picking = false;
  let unloading = false;
  const leave = (why: string) => {
    if (away || unloading) return;
    away = true;
    raise('screenSwitch', why);
  };
  const back = () => {
    if (document.visibilityState !== 'visible' || !document.hasFocus()) return;
    away = false;
    picking = false;
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') leave(detail.pageHidden());
    else back();
  };
  const onBlur = () => {
    // Focus goes to an element of another frame a tick later; only a real departure leaves no focus here.
    setTimeout(() => {
      if (picking || document.hasFocus()) return;
      if (document.activeElement instanceof HTMLIFrameElement) return;
      leave(detail.windowBlur());
    }, 0);
  };
  const onClick = (e: MouseEvent) => {
    if (e.target instanceof HTMLInputElement && e.target.type === 'file') picking = true;
  };
  const onPageHide = () => (unloading = true);
  const onPageShow = () => (unloading = false);
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('blur', onBlur);
  window.addEventListener('focus', back);
  document.addEventListener('click', onClick, true);
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('blur', onBlur);
    window.removeEventListener('focus', back);
    document.removeEventListener('click', onClick, true);
    window.removeEventListener('pagehide', onPageHide);
    window.removeEventListener('pageshow', onPageShow);
  };
}

/**
 * A page that was closed or reloaded: when it went away is kept in localStorage, and a return after
 * more than CLOSED_PAGE_SWITCH_MS is a screen switch (a reload is quicker; closing the exam to look
 * something up is not). Kept per candidate: on a shared browser, another candidate's leaving is not theirs.
 */
export function watchClosedPage(
  examId: number,
  raise: Raise,
  now: () => number = serverNow,
  owner: () => number | null = currentCandidate,
): Stop {
  const key = `exam-left:${examId}:${owner() ?? '-'}`;
  try {
    const left = Number(localStorage.getItem(key));
    localStorage.removeItem(key);
    if (left > 0 && now() - left > CLOSED_PAGE_SWITCH_MS) {
      raise('screenSwitch', detail.pageClosed((now() - left) / 1000));
    }
  } catch {
    // Storage off: a closed page is not seen, the rest still works.
  }
  const onPageHide = () => {
    try {
      localStorage.setItem(key, String(Math.round(now())));
    } catch {
      // As above.
    }
  };
  window.addEventListener('pagehide', onPageHide);
  return () => window.removeEventListener('pagehide', onPageHide);
}

/** True while the document shows something fullscreen. */
export const isFullscreen = (): boolean => document.fullscreenElement !== null;

/** Asks for fullscreen (needs a user gesture); answers false when the browser refuses. */
export async function enterFullscreen(): Promise<boolean> {
  if (isFullscreen()) return true;
  try {
    await document.documentElement.requestFullscreen({ navigationUI: 'hide' });
    return true;
  } catch {
    return false;
  }
}

/** What the fullscreen watcher reads of the document (the page's own, or a stand-in in tests). */
export type FullscreenDocument = Pick<Document, 'fullscreenElement' | 'addEventListener' | 'removeEventListener'>;

/** The fullscreen watcher: stop it, and tell it when a request for fullscreen has succeeded. */
export interface FullscreenWatch {
  stop: Stop;
  entered: () => void;
}

/**
 * Leaving fullscreen (3): raised when the document had been fullscreen and is no more. `onChange` follows the
 * state. Chromium reports `fullscreenchange` at its next frame, which a busy machine may hold back until after
 * the page has left fullscreen again: so the page says when its own request succeeded (`entered`), and an
 * event that finds the document no longer fullscreen after that counts as leaving.
 */
export function watchFullscreen(
  raise: Raise,
  onChange: (fullscreen: boolean) => void,
  doc: FullscreenDocument = document,
): FullscreenWatch {
  let was = doc.fullscreenElement !== null;
  const onFullscreen = () => {
    const now = doc.fullscreenElement !== null;
    if (was && !now) raise('cancelFullscreen', detail.leftFullscreen());
    was = now;
    onChange(now);
  };
  doc.addEventListener('fullscreenchange', onFullscreen);
  return {
    stop: () => doc.removeEventListener('fullscreenchange', onFullscreen),
    entered: () => {
      was = true;
    },
  };
}

/** Whitespace-insensitive form of a text, so a copy and its paste compare equal. */
const normalise = (s: string) => s.replace(/\s+/g, ' ').trim();

/** What is selected where a copy happens: an input's selected value, or the document's selection. */
function selectedText(): string {
  const el = document.activeElement;
  if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.selectionStart !== null) {
    return el.value.slice(el.selectionStart, el.selectionEnd ?? el.selectionStart);
  }
  return window.getSelection()?.toString() ?? '';
}

/**
 * Pastes (4) and copying the questions. A paste whose text was not copied inside this page comes
 * from outside and is raised (with the start of the text for the proctor), whether or not pasting
 * is allowed; when it is not, every paste is stopped here, before any editor sees it. When copying
 * questions is not allowed, copy, cut, the context menu and selecting are stopped on the question
 * text (anything in `.no-copy` that is not an answer field).
 */
export function watchClipboard(options: {
  raise: Raise;
  allowPaste: boolean;
  allowCopy: boolean;
  onPasteBlocked: () => void;
  onCopyBlocked: () => void;
}): Stop {
  const copied: string[] = [];
  const remember = (text: string) => {
    const n = normalise(text);
    if (!n) return;
    copied.push(n);
    if (copied.length > 50) copied.shift();
  };
  const inQuestion = (target: EventTarget | null) =>
    target instanceof Node &&
    (target instanceof Element ? target : target.parentElement)?.closest('.no-copy') !== null &&
    !isEditable(target) &&
    !(target instanceof Element && target.closest('[contenteditable="true"], .cm-editor, input, textarea'));

  // Chromium fires a copy of plain text at the selection's start, other browsers at the focused element.
  const selectionInQuestion = () => {
    const sel = window.getSelection();
    return !!sel && !sel.isCollapsed && (inQuestion(sel.anchorNode) || inQuestion(sel.focusNode));
  };
  const onCopy = (e: ClipboardEvent) => {
    const blocked = inQuestion(e.target) || selectionInQuestion();
    if (!options.allowCopy && blocked && !isEditable(document.activeElement)) {
      e.preventDefault();
      options.onCopyBlocked();
      return;
    }
    // Editors (CodeMirror) put their own text on the clipboard; the selection is the fallback.
    const text = e.clipboardData?.getData('text/plain') || selectedText();
    remember(text);
  };
  const onCopyBubble = (e: ClipboardEvent) => {
    // Read again after the editors' handlers have written the clipboard.
    const text = e.clipboardData?.getData('text/plain');
    if (text) remember(text);
  };
  const onPaste = (e: ClipboardEvent) => {
    const text = e.clipboardData?.getData('text/plain') ?? '';
    const n = normalise(text);
    const outside = n !== '' && !copied.includes(n);
    if (!options.allowPaste) {
      e.preventDefault();
      e.stopImmediatePropagation();
      options.onPasteBlocked();
    }
    if (outside) {
      options.raise('copyPasteOutside', detail.paste(!options.allowPaste, text));
    }
  };
  const onMenuOrSelect = (e: Event) => {
    if (options.allowCopy || !inQuestion(e.target)) return;
    e.preventDefault();
    if (e.type === 'contextmenu') options.onCopyBlocked();
  };
  document.addEventListener('copy', onCopy, true);
  document.addEventListener('cut', onCopy, true);
  document.addEventListener('copy', onCopyBubble);
  document.addEventListener('cut', onCopyBubble);
  // Window capture runs before every element's handler, so a blocked paste reaches no editor.
  window.addEventListener('paste', onPaste, true);
  document.addEventListener('contextmenu', onMenuOrSelect, true);
  document.addEventListener('selectstart', onMenuOrSelect, true);
  return () => {
    document.removeEventListener('copy', onCopy, true);
    document.removeEventListener('cut', onCopy, true);
    document.removeEventListener('copy', onCopyBubble);
    document.removeEventListener('cut', onCopyBubble);
    window.removeEventListener('paste', onPaste, true);
    document.removeEventListener('contextmenu', onMenuOrSelect, true);
    document.removeEventListener('selectstart', onMenuOrSelect, true);
  };
}

const TRACK_RISKS: Record<keyof ProctorStreams, RiskEventKey> = {
  camera: 'firstCameraAbnormal',
  microphone: 'microphoneAbnormal',
  screen: 'screenSharingAbnormal',
};

/**
 * Camera (11), microphone (13), screen sharing (14): a track that ends, or stays muted for
 * MUTE_GRACE_MS. Each track raises once per stretch; a replaced stream is watched anew.
 */
export function watchTracks(
  raise: Raise,
  streams: { get: () => ProctorStreams; subscribe: (fn: () => void) => () => void } = {
    get: getStreams,
    subscribe: subscribeStreams,
  },
): Stop {
  const watched = new Map<MediaStreamTrack, Stop>();
  const attach = (kind: keyof ProctorStreams, track: MediaStreamTrack) => {
    let ended = false;
    let muteTimer: ReturnType<typeof setTimeout> | undefined;
    const onEnded = () => {
      if (ended) return;
      ended = true;
      clearTimeout(muteTimer);
      raise(TRACK_RISKS[kind], detail.trackEnded(kind, track.label || track.kind));
    };
    const onMute = () => {
      clearTimeout(muteTimer);
      muteTimer = setTimeout(() => {
        if (track.muted && !ended) raise(TRACK_RISKS[kind], detail.trackMuted(kind, track.label || track.kind));
      }, MUTE_GRACE_MS);
    };
    const onUnmute = () => clearTimeout(muteTimer);
    track.addEventListener('ended', onEnded);
    track.addEventListener('mute', onMute);
    track.addEventListener('unmute', onUnmute);
    watched.set(track, () => {
      clearTimeout(muteTimer);
      track.removeEventListener('ended', onEnded);
      track.removeEventListener('mute', onMute);
      track.removeEventListener('unmute', onUnmute);
    });
  };
  const sync = () => {
    const current = streams.get();
    const live = new Set<MediaStreamTrack>();
    for (const kind of Object.keys(TRACK_RISKS) as (keyof ProctorStreams)[]) {
      for (const track of current[kind]?.getTracks() ?? []) {
        live.add(track);
        if (!watched.has(track)) attach(kind, track);
      }
    }
    for (const [track, stop] of watched) {
      if (live.has(track)) continue;
      stop();
      watched.delete(track);
    }
  };
  sync();
  const unsubscribe = streams.subscribe(sync);
  return () => {
    unsubscribe();
    for (const stop of watched.values()) stop();
    watched.clear();
  };
}

/**
 * Second camera (12): the phone stopped sending. Fed with mobileDeviceStatus from the live stream or
 * /monitor/state; a drop from 1 to 0 is raised once, until the phone is back.
 */
export function phoneWatcher(raise: Raise): (status: 0 | 1) => void {
  let last: 0 | 1 | null = null;
  return (status) => {
    if (last === 1 && status === 0) raise('secondCameraAbnormal', detail.phoneStopped());
    last = status;
  };
}

/**
 * Browser translation (19): Google and Edge translation mark <html> with translated-ltr/rtl (or
 * change its lang) and wrap the text in <font> elements. Raised once per translation; switching it
 * off and on again raises again.
 */
export function watchTranslation(raise: Raise): Stop {
  const html = document.documentElement;
  let lang = html.lang;
  let translated = false;
  const markedNow = () => /\btranslated-(ltr|rtl)\b/.test(html.className);
  const check = (why: string) => {
    if (translated) {
      if (!markedNow()) translated = false;
      return;
    }
    translated = true;
    raise('browserTranslate', why);
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes' && r.target === html) {
        if (r.attributeName === 'class' && markedNow())
          return check(detail.translated(`html class "${html.className}"`));
        if (r.attributeName === 'class' && !markedNow() && translated) translated = false;
        if (r.attributeName === 'lang' && html.lang !== lang) {
          const from = lang;
          lang = html.lang;
          // The app sets lang itself when the candidate switches its language; that is no translation.
          if (APP_LANGS.has(html.lang)) continue;
          return check(detail.translated(`html lang ${from} -> ${html.lang}`));
        }
      }
      if (r.type === 'childList') {
        for (const n of r.addedNodes) {
          if (n instanceof HTMLElement && (n.tagName === 'FONT' || n.querySelector('font'))) {
            return check(detail.translated('font elements injected into the page'));
          }
        }
      }
    }
  });
  observer.observe(html, { attributes: true, attributeFilter: ['class', 'lang'] });
  observer.observe(document.body, { childList: true, subtree: true });
  if (markedNow()) check(detail.translated(`html class "${html.className}"`));
  return () => observer.disconnect();
}

const APP_LANGS = new Set(['zh-CN', 'en-US']);

/**
 * Phone number change (21): the account logged in (the auth cookie, which any tab may replace) is
 * read again on every return to the page and every ACCOUNT_CHECK_MS; a phone other than the one
 * the exam started with is raised once per new number.
 */
export function watchAccount(startPhone: string, onChanged: (phone: string) => void): Stop {
  const seen = new Set<string>([startPhone]);
  let busy = false;
  const check = async () => {
    if (busy || document.visibilityState !== 'visible') return;
    busy = true;
    try {
      const info = await request(userCalls.getInfo);
      const phone = `${info.area_code} ${info.phone}`.trim();
      if (!seen.has(phone)) {
        seen.add(phone);
        onChanged(phone);
      }
    } catch {
      // No network or no session: nothing to compare; a lost session is handled by the client.
    } finally {
      busy = false;
    }
  };
  const onEvent = () => void check();
  const timer = setInterval(onEvent, ACCOUNT_CHECK_MS);
  window.addEventListener('focus', onEvent);
  document.addEventListener('visibilitychange', onEvent);
  return () => {
    clearInterval(timer);
    window.removeEventListener('focus', onEvent);
    document.removeEventListener('visibilitychange', onEvent);
  };
}

/** A risk record's form body. */
function riskBody(examId: number, risk: number, triggerTime: number, detail: string, clientId: string): RecordRiskBody {
  return { exam_id: examId, risk, trigger_time: triggerTime, detail, client_id: clientId };
}

/** Sends record bodies with sendBeacon to /monitor/fast-record-risk (the token in the address): for a page going away. */
export function beaconRisks(bodies: readonly RecordRiskBody[], auth: string | null = currentAuth()): number {
  if (typeof navigator.sendBeacon !== 'function' || !auth) return 0;
  const url = urlFor(monitorCalls.fastRecordRisk, undefined, auth);
  let sent = 0;
  for (const body of bodies) {
    const encoded = encodeBody('form', body);
    if (encoded && navigator.sendBeacon(url, encoded.body as URLSearchParams)) sent++;
  }
  return sent;
}

/**
 * Records a risk with a given token rather than the cookie's: after another account logged in
 * through the cookie, the record still belongs to the attempt that was open. Retried a few times
 * (the client id makes that safe), then left to a beacon.
 */
export async function recordRiskAs(auth: string, body: RecordRiskBody): Promise<RecordRiskData | null> {
  const call: CallDef = monitorCalls.recordRisk;
  const encoded = encodeBody('form', body);
  for (let tryNo = 0; tryNo < 3; tryNo++) {
    try {
      const res = await fetch(urlFor(monitorCalls.recordRisk, undefined, auth), {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: encoded?.body ?? null,
        credentials: 'same-origin',
      });
      return (await readResponse(call, res)) as RecordRiskData;
    } catch (e) {
      if (isApiError(e) && e.status >= 400 && e.status < 500) return null;
      await new Promise((r) => setTimeout(r, 1_000 * (tryNo + 1)));
    }
  }
  beaconRisks([body], auth);
  return null;
}

/** What the exam page shows from the detectors. */
export interface RiskState {
  /** Screen switches left before the attempt is submitted (from the attempt, then from each record's answer). */
  cutsLeft: number;
  /** Set after a screen switch the server counted: the switches left, for the notice the candidate dismisses. */
  switchNotice: number | null;
  /** True while the exam is shown fullscreen. */
  fullscreen: boolean;
  /** True after the candidate left fullscreen (the prompt to return shows). */
  leftFullscreen: boolean;
  /** Set when another account took over this browser's session: its phone. */
  accountChanged: string | null;
}

/** Options of the exam page's detectors. */
export interface RiskOptions {
  examId: number;
  /** The exam's outbox, once open. */
  box: Outbox | null;
  /** Screen switches left when the page opened. */
  cutsLeft: number;
  allowPaste: boolean;
  allowCopy: boolean;
  onPasteBlocked: () => void;
  onCopyBlocked: () => void;
  /** Takes the pertinent picture of a confirmed risk record. */
  pertinent: (riskRecordId: number) => void;
  /** The server submitted the attempt (too many screen switches). */
  onEnded: (reason: string) => void;
}

/** Every detector of the exam page, wired to the outbox; answers what the page shows and its actions. */
export function useRiskDetectors(options: RiskOptions): {
  state: RiskState;
  /** Feeds the phone's status (from the live stream or /monitor/state). */
  phoneStatus: (status: 0 | 1) => void;
  /** Asks for fullscreen (call from a click). */
  requestFullscreen: () => Promise<boolean>;
  /** Hides the screen-switch notice. */
  dismissSwitchNotice: () => void;
} {
  const { examId, box } = options;
  const latest = useRef(options);
  latest.current = options;
  const [state, setState] = useState<RiskState>(() => ({
    cutsLeft: options.cutsLeft,
    switchNotice: null,
    fullscreen: isFullscreen(),
    leftFullscreen: false,
    accountChanged: null,
  }));
  // Events seen before the outbox is open (the live stream says the phone's status at once) wait for it.
  const early = useRef<[RiskEventKey, string][]>([]);
  const raiseRef = useRef<Raise>((risk, detail) => early.current.push([risk, detail]));
  // The phone's status is followed from the first event on, whether or not the outbox is open yet.
  const [phone] = useState(() => phoneWatcher((risk, detail) => raiseRef.current(risk, detail)));
  // Told when the page's own request for fullscreen succeeds (see watchFullscreen).
  const fullscreenEntered = useRef<() => void>(() => undefined);

  useEffect(() => {
    if (!box) return;
    const raise: Raise = (risk, detail) => {
      void box.recordRisk(RISK_EVENTS[risk].id, detail).catch(() => undefined);
    };
    const queue = early.current;
    raiseRef.current = raise;
    for (const [risk, detail] of queue.splice(0)) raise(risk, detail);
    // The token the exam started with: records made after another login still belong to this attempt.
    const startAuth = currentAuth();
    let startPhone: string | null = null;
    let stopAccount: Stop = () => undefined;
    void request(userCalls.getInfo).then(
      (info) => {
        startPhone = `${info.area_code} ${info.phone}`.trim();
        stopAccount = watchAccount(startPhone, (phone) => {
          setState((s) => ({ ...s, accountChanged: phone }));
          if (!startAuth) return;
          const body = riskBody(
            examId,
            RISK_EVENTS.changePhoneNumber.id,
            Math.round(serverNow()),
            detail.accountChanged(maskPhone(phone)),
            crypto.randomUUID(),
          );
          void recordRiskAs(startAuth, body).then((data) => {
            if (data) latest.current.pertinent(data.id);
          });
        });
      },
      () => undefined,
    );

    const fullscreen = watchFullscreen(raise, (on) =>
      setState((s) => ({ ...s, fullscreen: on, leftFullscreen: on ? false : s.fullscreen || s.leftFullscreen })),
    );
    fullscreenEntered.current = fullscreen.entered;
    const stops: Stop[] = [
      watchScreenSwitch(raise),
      watchClosedPage(examId, raise),
      fullscreen.stop,
      watchClipboard({
        raise,
        allowPaste: latest.current.allowPaste,
        allowCopy: latest.current.allowCopy,
        onPasteBlocked: () => latest.current.onPasteBlocked(),
        onCopyBlocked: () => latest.current.onCopyBlocked(),
      }),
      watchTracks(raise),
      watchTranslation(raise),
      onRiskRecorded((entry: OutboxEntry, data: RecordRiskData) => {
        if (entry.exam_id !== examId) return;
        latest.current.pertinent(data.id);
        if (entry.risk === RISK_EVENTS.screenSwitch.id) {
          setState((s) => ({ ...s, cutsLeft: data.cuts_left, switchNotice: Math.max(0, data.cuts_left) }));
        }
        if (data.phase === ExamPhase.submit) latest.current.onEnded('cuts');
      }),
    ];

    // What is still waiting when the page goes away is sent once more by beacon; screen switches
    // stay for the outbox, whose record-risk counts them when the page is back.
    const onPageHide = () => {
      const waiting = box
        .pendingRisks()
        .filter((e) => e.risk !== RISK_EVENTS.screenSwitch.id)
        .map((e) => ({
          ...riskBody(e.exam_id, e.risk ?? 0, e.changed_at, e.detail ?? '', e.client_id),
          ...(e.image_key !== undefined ? { image_key: e.image_key } : {}),
        }));
      beaconRisks(waiting, startAuth);
    };
    window.addEventListener('pagehide', onPageHide);

    return () => {
      window.removeEventListener('pagehide', onPageHide);
      for (const stop of stops) stop();
      stopAccount();
      raiseRef.current = (risk, detail) => queue.push([risk, detail]);
      fullscreenEntered.current = () => undefined;
      // The exam is over or the page left it: fullscreen ends with it, and that is no risk.
      if (isFullscreen()) void document.exitFullscreen().catch(() => undefined);
    };
  }, [box, examId]);

  return {
    state,
    phoneStatus: phone,
    requestFullscreen: useCallback(async () => {
      const ok = await enterFullscreen();
      if (ok) {
        fullscreenEntered.current();
        setState((s) => ({ ...s, fullscreen: true, leftFullscreen: false }));
      }
      return ok;
    }, []),
    dismissSwitchNotice: useCallback(() => setState((s) => ({ ...s, switchNotice: null })), []),
  };
}

/** A phone number with its middle hidden, for details that proctors read. */
export function maskPhone(phone: string): string {
  return phone.replace(/(\d{3})\d{4}(\d{2,})/, '$1****$2');
}
