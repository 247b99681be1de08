/**
 * What the page can tell of the machine the candidate sits at: a second screen (Chromium's `screen.isExtended`, and
 * the Window Management API's screens where the candidate has permitted it) and signs of a virtual machine or a
 * remote desktop (the WebGL renderer's name, the screen's and the camera's shapes). Each sign is a risk event with what
 * was seen, for a person to weigh; none stops the exam by itself. Loaded with the device checks and, lazily, by the
 * exam page, so the exam page's own bundle stays light.
 */
import {
  detail,
  RISK_EVENTS,
  type ExamDetail,
  type MachineSign,
  type RiskEventKey,
  type ScreenMoment,
} from '@examhall/contract';
import type { Outbox } from '../exam/outbox.js';

/** What the browser tells of the screens. */
export interface ScreenReading {
  /** True when the desktop spans more than one screen. */
  extended: boolean;
  /** How many screens, when the Window Management API answered; null otherwise. */
  screens: number | null;
  /** Their labels, when it answered. */
  labels: string[];
}

/** Raises one risk event with its detail; settles once it is recorded (or kept to be sent). */
export type RaiseRisk = (risk: RiskEventKey, detail: string) => Promise<unknown>;

/** The Window Management API's part this page reads (Chromium 100+). */
interface ScreenDetails {
  screens: readonly { label?: string }[];
}
type WithScreenDetails = Window & { getScreenDetails?: () => Promise<ScreenDetails> };
type ExtendedScreen = Screen & { isExtended?: boolean } & EventTarget;

/** The screens, by `screen.isExtended` and, where the candidate has permitted it, the Window Management API. */
export async function readScreens(): Promise<ScreenReading> {
  const extended = (window.screen as ExtendedScreen).isExtended === true;
  const reading: ScreenReading = { extended, screens: null, labels: [] };
  const w = window as WithScreenDetails;
  if (typeof w.getScreenDetails !== 'function' || !navigator.permissions) return reading;
  try {
    // Asked only when already granted: the check never pops a permission prompt of its own.
    const status = await navigator.permissions.query({ name: 'window-management' as PermissionName });
    if (status.state !== 'granted') return reading;
    const details = await w.getScreenDetails();
    const labels = details.screens.map((s, i) => s.label || `#${i + 1}`);
    return { extended: extended || labels.length > 1, screens: labels.length, labels };
  } catch {
    return reading;
  }
}

/** Calls `onChange` with a new reading whenever the screens change (the `change` event of `screen`). */
export function watchScreens(onChange: (reading: ScreenReading) => void): () => void {
  const target = window.screen as ExtendedScreen;
  if (typeof target.addEventListener !== 'function') return () => undefined;
  const listener = () => void readScreens().then(onChange);
  target.addEventListener('change', listener);
  return () => target.removeEventListener('change', listener);
}

/** The graphics renderer WebGL names (the unmasked one where the browser gives it), or '' without WebGL. */
export function webglRenderer(): string {
  try {
    const canvas = document.createElement('canvas');
    const gl = (canvas.getContext('webgl') ?? canvas.getContext('experimental-webgl')) as WebGLRenderingContext | null;
    if (!gl) return '';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return name;
  } catch {
    return '';
  }
}

const SOFTWARE = /swiftshader|llvmpipe|softpipe|microsoft basic render|software (rasterizer|renderer|adapter)/i;
const VIRTUAL = /vmware|svga3d|virtualbox|vbox|parallels|\bqxl\b|virtio|virgl|red hat|hyper-v|bochs|cirrus/i;
const REMOTE = /microsoft remote display|rdpudd|rdpdd|citrix|remote desktop|chrome remote/i;
const VIRTUAL_CAMERA = /virtual|\bobs\b|manycam|xsplit|snap camera|droidcam|e2esoft|vcam|vmware|virtualbox/i;

/** What a page sees of a machine: the signs found, and the evidence they were found in. */
export interface MachineReading {
  signs: MachineSign[];
  renderer: string;
  screen: string;
  camera: string | null;
}

/** Reads the signs of a virtual machine or remote desktop: the renderer, the screen's shape, the camera's. */
export function readMachine(camera: MediaStream | null, renderer = webglRenderer()): MachineReading {
  const s = window.screen;
  const screenShape = `${s.width}x${s.height}@${s.colorDepth}`;
  const track = camera?.getVideoTracks()[0];
  const settings = track?.getSettings();
  const cameraShape = track ? `${track.label}${settings?.width ? ` ${settings.width}x${settings.height}` : ''}` : null;
  const signs: MachineSign[] = [];
  if (SOFTWARE.test(renderer)) signs.push('softwareRenderer');
  if (VIRTUAL.test(renderer)) signs.push('virtualAdapter');
  if (REMOTE.test(renderer)) signs.push('remoteDisplay');
  // Virtual machines' and remote sessions' default desktops: small, or fewer colours than a real display.
  if ((s.width <= 1024 && s.height <= 768) || s.colorDepth < 24) signs.push('screenShape');
  if (track && VIRTUAL_CAMERA.test(track.label)) signs.push('virtualCamera');
  return { signs, renderer, screen: screenShape, camera: cameraShape };
}

/** What this browser tab already raised for an exam, so a reload or the move from the checks to the exam does not repeat it. */
const mark = {
  key: (examId: number, what: string) => `examhall.env.${examId}.${what}`,
  has(examId: number, what: string): boolean {
    try {
      return sessionStorage.getItem(this.key(examId, what)) === '1';
    } catch {
      return false;
    }
  },
  set(examId: number, what: string, on: boolean): void {
    try {
      if (on) sessionStorage.setItem(this.key(examId, what), '1');
      else sessionStorage.removeItem(this.key(examId, what));
    } catch {
      // Storage refused: an event may be raised twice, never missed.
    }
  },
};

/** Options of `watchEnvironment`. */
export interface EnvironmentOptions {
  examId: number;
  /** Where the page is: the device check or the exam. */
  where: 'check' | 'exam';
  /** True when the exam forbids a second screen. */
  forbidSecondScreen: boolean;
  /** The camera stream, when one is open. */
  camera: () => MediaStream | null;
  raise: RaiseRisk;
  /** Hears every reading of the screens (the check asks to disconnect a second one). */
  onScreens?: (reading: ScreenReading) => void;
  /** False: the signs of a virtual machine are read later (the check reads them once its devices are open). */
  machine?: boolean;
}

/** Raises the signs of a virtual machine or remote desktop, with what was seen, once per exam in this tab. */
export function raiseMachine(examId: number, camera: MediaStream | null, raise: RaiseRisk): void {
  if (mark.has(examId, 'machine')) return;
  const machine = readMachine(camera);
  if (machine.signs.length === 0) return;
  mark.set(examId, 'machine', true);
  raise(
    'virtualMachine',
    detail.virtualMachine({
      signs: machine.signs,
      renderer: machine.renderer.slice(0, 300),
      screen: machine.screen.slice(0, 100),
      camera: machine.camera?.slice(0, 300) ?? null,
    }),
  ).catch(() => mark.set(examId, 'machine', false));
}

/**
 * Watches the machine for the page's life: a second screen where the exam forbids one is raised when first seen (at
 * the check or when the exam page opens) and each time one is connected again; the signs of a virtual machine or remote
 * desktop are raised once, with what was seen. Answers the cleanup.
 */
export function watchEnvironment(options: EnvironmentOptions): () => void {
  const { examId, forbidSecondScreen, raise } = options;
  let stopped = false;
  const onReading = (reading: ScreenReading, when: ScreenMoment) => {
    if (stopped) return;
    options.onScreens?.(reading);
    if (!forbidSecondScreen) return;
    const raised = mark.has(examId, 'screen');
    mark.set(examId, 'screen', reading.extended);
    if (reading.extended && !raised) {
      raise(
        'secondScreen',
        detail.secondScreen({
          when,
          screens: reading.screens,
          labels: reading.labels.slice(0, 8).map((l) => l.slice(0, 100)),
        }),
      ).catch(() => mark.set(examId, 'screen', false));
    }
  };
  void readScreens().then((r) => onReading(r, options.where));
  const unwatch = watchScreens((r) => onReading(r, options.where === 'check' ? 'check' : 'change'));
  if (options.machine !== false) raiseMachine(examId, options.camera(), raise);
  return () => {
    stopped = true;
    unwatch();
  };
}

/** The exam page's watch: the exam's rule on a second screen, the camera it keeps open, records through its outbox. */
export function watchExam(
  box: Pick<Outbox, 'recordRisk'>,
  exam: Pick<ExamDetail, 'id' | 'is_second_screen'>,
  camera: () => MediaStream | null,
) {
  return watchEnvironment({
    examId: exam.id,
    where: 'exam',
    forbidSecondScreen: exam.is_second_screen !== 1,
    camera,
    raise: (risk, text) => box.recordRisk(RISK_EVENTS[risk].id, text),
  });
}
