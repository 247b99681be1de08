import { roleHas, type CallDef, type StaffRole } from '@examhall/contract';
import { fail } from '../http/errors.js';

/** A logged-in staff member. */
export interface StaffActor {
  id: number;
  name: string;
  phone: string;
  role: StaffRole;
}

/**
 * The one permission check of every staff call: the permission comes from the call's entry in the
 * API catalogue, so the route list and the check cannot drift apart.
 */
export function authorize(actor: StaffActor, call: CallDef): void {
  if (call.auth !== 'staff') throw new Error(`${call.path} is not a staff call`);
  if (call.permission && !roleHas(actor.role, call.permission)) {
    throw fail('forbidden', `the ${actor.role} role may not use ${call.method} ${call.path}`);
  }
}
