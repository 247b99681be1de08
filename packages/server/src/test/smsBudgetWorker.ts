/**
 * A process that sends texts against the budgets, for the test of budgets across processes (run with tsx's
 * loader): opens the shared database (JOB_DB, JOB_DB_SCHEMA as in jobWorker.ts), prints "ready", and on "go" from
 * its input asks for every text of TEXTS (JSON: BudgetedText[]) at once, each in its own transaction, under the
 * budgets of BUDGETS (JSON: SmsBudgets); prints one JSON line with the verdicts (null: counted, else the budget
 * that held it back) and exits.
 */
import { sql } from 'kysely';
import { openWorkerDb } from './workerDb.js';
import { SmsBudget, type BudgetedText, type SmsBudgets } from '../services/smsBudget.js';

const db = openWorkerDb().db;
const texts = JSON.parse(process.env.TEXTS ?? '[]') as BudgetedText[];
const budget = new SmsBudget(JSON.parse(process.env.BUDGETS ?? '{}') as SmsBudgets, Date.now);
// Connected before the signal, so that every process starts asking at the same moment.
await sql`select 1`.execute(db);
process.stdout.write('ready\n');
process.stdin.once('data', () => {
  void (async () => {
    const verdicts = await Promise.all(texts.map(async (t) => (await budget.take(db, [t]))[0]!.held));
    process.stdout.write(`${JSON.stringify(verdicts)}\n`);
    await db.destroy();
    process.exit(0);
  })();
});
