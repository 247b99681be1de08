import { describeDetail, ERROR_CODES, monitorStepKey, type DescribedDetail } from '@examhall/contract';
import type { ClientErrorCode } from '../api/clientErrorCode.js';
import { errorKey, type MessageParams } from './format.js';
import type { MessageKey } from './zh.js';

type T = (key: MessageKey, params?: MessageParams) => string;

const seconds = (ms: number) => Math.round(ms / 100) / 10;

function stepName(t: T, step: number): string {
  const key = monitorStepKey(step);
  return key ? t(`monitor.step.${key}`) : String(step);
}

function resultName(t: T, result: string): string {
  return result === 'passed' || result === 'skipped' || result === 'failed' ? t(`detail.result.${result}`) : result;
}

const CLIENT_CODES: readonly string[] = [
  'timeout',
  'network_error',
  'invalid_response',
  'http_error',
] satisfies ClientErrorCode[];

/** The error of a failed send in the reader's language when its code is known; its message as written otherwise. */
function sendError(t: T, error: string, code: string | undefined): string {
  const known =
    code !== undefined && ((ERROR_CODES as readonly string[]).includes(code) || CLIENT_CODES.includes(code));
  return known ? t(errorKey(code as ClientErrorCode)) : error;
}

function words(t: T, d: DescribedDetail): string {
  switch (d.key) {
    case 'faceMismatch': {
      const parts = [
        d.params.similarity !== null ? t('detail.faceMismatch.first', { similarity: d.params.similarity }) : null,
        d.params.id_similarity !== null ? t('detail.faceMismatch.id', { similarity: d.params.id_similarity }) : null,
      ].filter((p): p is string => p !== null);
      return parts.length > 0 ? `${t('detail.faceMismatch')}: ${parts.join('; ')}` : t('detail.faceMismatch');
    }
    case 'faceFindings':
      return t('detail.faceFindings', { faces: d.params.faces, phone: d.params.phone });
    case 'faceVerified': {
      const saw = d.params.finding === null ? t('detail.faceVerified.clean') : t(`detail.${d.params.finding}.short`);
      return t(d.params.agrees ? 'detail.faceVerified' : 'detail.faceVerified.disagrees', {
        record: d.params.record,
        faces: d.params.faces,
        saw,
      });
    }
    case 'slowResponse':
      return t('detail.slowResponse', { s: seconds(d.params.ms) });
    case 'recording':
      return t('detail.recording', { s: seconds(d.params.ms) });
    case 'paste':
      return t(d.params.blocked ? 'detail.paste.blocked' : 'detail.paste', {
        length: d.params.length,
        head: d.params.head,
      });
    case 'trackEnded':
    case 'trackMuted':
      return t(`detail.${d.key}`, { track: t(`detail.track.${d.params.track}`), label: d.params.label });
    case 'check':
      // The device id is an opaque hash the browser makes up: nothing a proctor could act on.
      return t('detail.check', { step: stepName(t, d.params.step), result: resultName(t, d.params.result) });
    case 'stepSkipped':
      return t('detail.stepSkipped', { step: stepName(t, d.params.step) });
    case 'failedSends':
      return t('detail.failedSends', { n: d.params.n, error: sendError(t, d.params.error, d.params.code) });
    case 'secondScreen':
      return t('detail.secondScreen', {
        when: t(`detail.secondScreen.when.${d.params.when}`),
        screens:
          d.params.screens === null
            ? ''
            : t('detail.secondScreen.screens', { n: d.params.screens, labels: d.params.labels.join(', ') || '-' }),
      });
    case 'virtualMachine':
      return t('detail.virtualMachine', {
        signs: d.params.signs.map((s) => t(`detail.virtualMachine.sign.${s}`)).join(', '),
        renderer: d.params.renderer || '-',
        screen: d.params.screen,
        camera: d.params.camera ?? t('detail.virtualMachine.noCamera'),
      });
    case 'noFace':
    case 'faces':
    case 'phoneSeen':
    case 'browserOffline':
    case 'pageOpenedOffline':
    case 'capturedOffline':
    case 'pageHidden':
    case 'windowBlur':
    case 'pageClosed':
    case 'leftFullscreen':
    case 'phoneStopped':
    case 'translated':
    case 'accountChanged':
    case 'riskPicture':
      // Their parameters are plain numbers and strings, filled in as they are.
      return t(`detail.${d.key}`, d.params);
  }
}

/** A stored risk or evidence detail in the page's language; text outside the vocabulary is shown as written. */
export function detailText(t: T, text: string): string {
  const d = describeDetail(text);
  return d ? words(t, d) : text;
}
