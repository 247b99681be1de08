/**
 * The texts of the result page's explanations, added to the dictionaries when this module loads: only the part of
 * the result page that shows them imports it, so the exam page never downloads them.
 */
import { explanationsEn } from './explanations.en.js';
import { explanationsZh } from './explanations.zh.js';
import { addMessages } from './format.js';

addMessages({ 'zh-CN': explanationsZh, 'en-US': explanationsEn });
