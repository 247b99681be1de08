/**
 * The console's texts, added to the dictionaries when this module loads: the console's pages (and the preview's
 * key panel) import it, so candidate pages never download them.
 */
import { consoleEn } from './console.en.js';
import { consoleZh } from './console.zh.js';
import { addMessages } from './format.js';

addMessages({ 'zh-CN': consoleZh, 'en-US': consoleEn });
