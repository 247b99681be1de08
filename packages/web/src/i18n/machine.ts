/**
 * The texts of the machine checks (a second screen, a virtual machine or remote desktop), added to the dictionaries
 * when this module loads: the device checks, the integrity log and the console import it, so the exam page never
 * downloads them.
 */
import { addMessages } from './format.js';
import { machineEn } from './machine.en.js';
import { machineZh } from './machine.zh.js';

addMessages({ 'zh-CN': machineZh, 'en-US': machineEn });
