import type { machineZh } from './machine.zh.js';

/** English texts of the machine checks (see machine.zh.ts). */
export const machineEn: Record<keyof typeof machineZh, string> = {
  'proctor.secondScreen.title': 'A second screen is connected',
  'proctor.secondScreen.body':
    'This exam is taken on one screen. Disconnect the other screen (or switch the display to mirror or to one screen only); the exam can start once only one screen is left. The proctor sees that a second screen was connected.',
  'detail.secondScreen': 'A second screen is connected ({when}){screens}',
  'detail.secondScreen.when.check': 'seen at the device check',
  'detail.secondScreen.when.exam': 'seen when the exam page opened',
  'detail.secondScreen.when.change': 'connected during the exam',
  'detail.secondScreen.screens': ': {n} screens ({labels})',
  'detail.virtualMachine':
    'Signs of a virtual machine or remote desktop: {signs}. Graphics: {renderer}; screen {screen}; camera: {camera}',
  'detail.virtualMachine.sign.softwareRenderer': 'software graphics renderer',
  'detail.virtualMachine.sign.virtualAdapter': 'virtual graphics adapter',
  'detail.virtualMachine.sign.remoteDisplay': 'remote desktop display adapter',
  'detail.virtualMachine.sign.screenShape': 'screen of a virtual machine’s shape',
  'detail.virtualMachine.sign.virtualCamera': 'virtual camera',
  'detail.virtualMachine.noCamera': 'none',
};
