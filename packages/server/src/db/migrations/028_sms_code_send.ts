import type { Kysely } from 'kysely';

/**
 * Login codes paced to the SMS provider: `send_at` is when a code goes (or went) out, which may be after the
 * request when many ask at once; the resend interval counts from it. `failed_at` records a code the provider
 * refused, which then holds no limit (the candidate may ask again at once). Codes from before have neither:
 * they went out when created.
 */
export function smsCodeSend() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sms_codes').addColumn('send_at', 'bigint').execute();
      await db.schema.alterTable('sms_codes').addColumn('failed_at', 'bigint').execute();
    },
  };
}
