/**
 * The console's texts, added to the dictionaries when this module loads: the console's pages (and the preview's
 * key panel) import it, so candidate pages never download them.
 */
import { accountEn } from './account.en.js';
import { accountZh } from './account.zh.js';
import { analysisEn } from './analysis.en.js';
import { analysisZh } from './analysis.zh.js';
import { candidatesEn } from './candidates.en.js';
import { consoleEn } from './console.en.js';
import { gradingEn } from './grading.en.js';
import { invitationsEn } from './invitations.en.js';
import { candidatesZh } from './candidates.zh.js';
import { consoleZh } from './console.zh.js';
import { gradingZh } from './grading.zh.js';
import { invitationsZh } from './invitations.zh.js';
import { resultsEn } from './results.en.js';
import { resultsZh } from './results.zh.js';
import { integrationsEn } from './integrations.en.js';
import { integrationsZh } from './integrations.zh.js';
import { questionsEn } from './questions.en.js';
import { questionsZh } from './questions.zh.js';
import { similarityEn } from './similarity.en.js';
import { similarityZh } from './similarity.zh.js';
import { ssoEn } from './sso.en.js';
import { ssoZh } from './sso.zh.js';
import { addMessages } from './format.js';
// The timeline words the details of the machine checks.
import './machine.js';

addMessages({
  'zh-CN': {
    ...consoleZh,
    ...questionsZh,
    ...candidatesZh,
    ...invitationsZh,
    ...similarityZh,
    ...gradingZh,
    ...resultsZh,
    ...integrationsZh,
    ...analysisZh,
    ...accountZh,
    ...ssoZh,
  },
  'en-US': {
    ...consoleEn,
    ...questionsEn,
    ...candidatesEn,
    ...invitationsEn,
    ...similarityEn,
    ...gradingEn,
    ...resultsEn,
    ...integrationsEn,
    ...analysisEn,
    ...accountEn,
    ...ssoEn,
  },
});
