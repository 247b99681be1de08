export * from './api/index.js';
export * from './answerState.js';
export * from './areaCodes.js';
export * from './checks.js';
export * from './constants.js';
export * from './details.js';
export * from './dimensions.js';
export * from './enums.js';
export * from './errors.js';
export * from './languages.js';
export * from './questions/index.js';
export * from './schemas/answer.js';
export * from './smsTemplate.js';
export * from './schemas/audit.js';
export * from './schemas/bank.js';
export * from './schemas/ceping.js';
export * from './schemas/common.js';
export * from './schemas/exam.js';
export * from './schemas/ids.js';
export * from './schemas/examEditor.js';
export * from './schemas/imports.js';
<<<<<<< HEAD
export * from './schemas/invitations.js';
=======
export * from './schemas/jobs.js';
>>>>>>> jobs
export * from './schemas/monitor.js';
export * from './schemas/proctor.js';
export * from './schemas/site.js';
export * from './schemas/staff.js';
export * from './schemas/subject.js';
export * from './schemas/team.js';
export * from './schemas/user.js';
export * from './time.js';
export * from './schemas/profile.js';
export * from './webPages.js';
