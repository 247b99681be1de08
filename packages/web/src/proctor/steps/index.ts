/** The device checks of the monitor phase: one component per step, the widgets they share and their hooks. */
export { CameraStep } from './CameraStep.js';
export { MicrophoneStep } from './MicrophoneStep.js';
export { MobileStep } from './MobileStep.js';
export { ScreenStep } from './ScreenStep.js';
export { SignatureStep } from './SignatureStep.js';
export type { StepOutcome, StepProps } from './hooks.js';
export { DeviceProblem, StreamPreview } from './widgets.js';
