/** Schedules and accommodations: time slots of an exam, extra time, personal windows, reopened attempts. */
import { z } from 'zod';
import { ClientId, EpochMs, Id, IdParam, PageQuery } from './common.js';

/** Longest exam length, minutes (a week); the same bound as the exam editor's. */
const MINUTES_MAX = 7 * 24 * 60;
/** Largest extra time as a percentage of the exam's length. */
export const EXTRA_PERCENT_MAX = 400;
/** Most seats one slot may hold. */
export const SLOT_CAPACITY_MAX = 100_000;
/** Most invitations one bulk change names. */
export const BULK_INVITATIONS_MAX = 500;

/** Who puts candidates into slots: staff ('assigned') or each candidate ('chosen'). */
export const SlotMode = z.enum(['assigned', 'chosen']);
/** Who puts candidates into slots. */
export type SlotMode = z.infer<typeof SlotMode>;

/** How extra time is given: a number of minutes, or a percentage of the exam's length (rounded up). */
export const ExtraMode = z.enum(['minutes', 'percent']);
/** How extra time is given. */
export type ExtraMode = z.infer<typeof ExtraMode>;

/** Where a candidate's own window comes from: a personal window, their slot, or the exam's window. */
export const WindowSource = z.enum(['personal', 'slot', 'exam']);
/** Where a candidate's own window comes from. */
export type WindowSource = z.infer<typeof WindowSource>;

/** A slot as a candidate sees it (no seat counts). */
export const SlotRef = z.object({
  /** Slot id. */
  id: z.number().int(),
  /** Its name, e.g. 'Morning'. */
  label: z.string(),
  /** When it opens (epoch ms). */
  start_at: EpochMs,
  /** When it closes (epoch ms). */
  end_at: EpochMs,
});
/** A slot as a candidate sees it. */
export type SlotRef = z.infer<typeof SlotRef>;

/** A slot as staff see it: with its capacity and the seats taken. */
export const SlotView = SlotRef.extend({
  /** Seats. */
  capacity: z.number().int(),
  /** Invitations in it. */
  taken: z.number().int(),
});
/** A slot as staff see it. */
export type SlotView = z.infer<typeof SlotView>;

/** The fields of a slot staff write. */
const SlotFields = z.object({
  /** A name candidates see. */
  label: z.string().trim().max(60).default(''),
  /** When it opens (epoch ms), inside the exam's window. */
  start_at: EpochMs,
  /** When it closes (epoch ms), after it opens and inside the exam's window. */
  end_at: EpochMs,
  /** Seats. */
  capacity: z.number().int().min(1).max(SLOT_CAPACITY_MAX),
});

/** GET /admin/exam/slots data. */
export const SlotListData = z.object({
  /** Who puts candidates into slots. */
  slot_mode: SlotMode,
  /** The exam's window, which slots must lie in. */
  start_at: EpochMs,
  /** The exam's closing time. */
  end_at: EpochMs,
  /** Slots by start time. */
  list: z.array(SlotView),
});
/** GET /admin/exam/slots data. */
export type SlotListData = z.infer<typeof SlotListData>;

/** POST /admin/exam/slot/create body. */
export const SlotCreateBody = SlotFields.extend({
  /** Exam id. */
  exam_id: Id,
});
/** POST /admin/exam/slot/create body. */
export type SlotCreateBody = z.input<typeof SlotCreateBody>;

/** POST /admin/exam/slot/update body. */
export const SlotUpdateBody = SlotFields.extend({
  /** Exam id. */
  exam_id: Id,
  /** The slot changed. */
  slot_id: Id,
});
/** POST /admin/exam/slot/update body. */
export type SlotUpdateBody = z.input<typeof SlotUpdateBody>;

/** POST /admin/exam/slot/delete body. */
export const SlotDeleteBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The slot removed (refused while invitations sit in it). */
  slot_id: Id,
});
/** POST /admin/exam/slot/delete body. */
export type SlotDeleteBody = z.input<typeof SlotDeleteBody>;

/** POST /admin/exam/slot-mode body. */
export const SlotModeBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Who puts candidates into slots from now on. */
  slot_mode: SlotMode,
});
/** POST /admin/exam/slot-mode body. */
export type SlotModeBody = z.input<typeof SlotModeBody>;

/** GET /admin/exam/invitations query. */
export const InvitationListQuery = PageQuery.extend({
  /** Exam id. */
  exam_id: IdParam,
  /** Only phones containing these digits. */
  phone: z
    .string()
    .trim()
    .regex(/^\d{0,20}$/, 'digits only')
    .optional(),
  /** Only invitations in this slot, or 'none': those in no slot. */
  slot: z.union([z.literal('none'), IdParam]).optional(),
  /** Sort key. */
  sort: z.enum(['id', 'phone', 'slot']).default('id'),
  /** Sort direction. */
  order: z.enum(['asc', 'desc']).default('asc'),
});
/** GET /admin/exam/invitations query. */
export type InvitationListQuery = z.input<typeof InvitationListQuery>;

/** An invitation row of the staff console with its accommodations and its latest attempt. */
export const InvitationView = z.object({
  /** Invitation id (anid). */
  id: z.number().int(),
  /** Calling code. */
  area_code: z.string(),
  /** Phone. */
  phone: z.string(),
  /** Its slot, or null. */
  slot_id: z.number().int().nullable(),
  /** How extra time is given. */
  extra_mode: ExtraMode,
  /** Extra minutes, or the percentage, by `extra_mode`. */
  extra_value: z.number().int(),
  /** The extra minutes it amounts to now. */
  extra_minutes: z.number().int(),
  /** Personal window start, or null. */
  window_start: EpochMs.nullable(),
  /** Personal window end, or null. */
  window_end: EpochMs.nullable(),
  /** The window that applies: personal ?? slot ?? exam. */
  effective_start: EpochMs,
  /** Its end. */
  effective_end: EpochMs,
  /** When it was revoked (epoch ms), or null while it stands. */
  revoked_at: EpochMs.nullable(),
  /** The latest attempt, or null. */
  attempt: z
    .object({
      /** Attempt id. */
      id: z.number().int(),
      /** Phase: monitor 1, exam 2, submit 3. */
      phase: z.number().int(),
      /** When its time is up (epoch ms), once started. */
      end_at: EpochMs.nullable(),
      /** Why it ended, once it did. */
      finish_reason: z.string().nullable(),
    })
    .nullable(),
});
/** An invitation row of the staff console. */
export type InvitationView = z.infer<typeof InvitationView>;

/** GET /admin/exam/invitations data. */
export const InvitationListData = z.object({
  /** One page. */
  list: z.array(InvitationView),
  /** How many match. */
  total: z.number().int(),
});
/** GET /admin/exam/invitations data. */
export type InvitationListData = z.infer<typeof InvitationListData>;

/** The invitations a bulk change acts on. */
const BulkInvitations = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Invitations of that exam. */
  invitation_ids: z.array(Id).min(1).max(BULK_INVITATIONS_MAX),
});

/** POST /admin/exam/invitations/slot body. */
export const AssignSlotBody = BulkInvitations.extend({
  /** The slot they go into; null takes them out of any slot. */
  slot_id: Id.nullable(),
});
/** POST /admin/exam/invitations/slot body. */
export type AssignSlotBody = z.input<typeof AssignSlotBody>;

/** Extra time: minutes, or a percentage of the exam's length. */
export const ExtraTime = z
  .object({
    /** How it is given. */
    mode: ExtraMode,
    /** Minutes (up to a week) or percent (up to 400). */
    value: z.number().int().min(0),
  })
  .refine((e) => e.value <= (e.mode === 'minutes' ? MINUTES_MAX : EXTRA_PERCENT_MAX), {
    message: `at most ${MINUTES_MAX} minutes or ${EXTRA_PERCENT_MAX} percent`,
    path: ['value'],
  });
/** Extra time. */
export type ExtraTime = z.infer<typeof ExtraTime>;

/** A personal window. */
export const PersonalWindow = z
  .object({
    /** When it opens (epoch ms). */
    start_at: EpochMs,
    /** When it closes (epoch ms). */
    end_at: EpochMs,
  })
  .refine((w) => w.end_at > w.start_at, { message: 'closes before it opens', path: ['end_at'] });
/** A personal window. */
export type PersonalWindow = z.infer<typeof PersonalWindow>;

/** POST /admin/exam/invitations/accommodations body: what is left out stays as it is. */
export const AccommodationsBody = BulkInvitations.extend({
  /** New extra time. */
  extra: ExtraTime.optional(),
  /** New personal window; null removes it. */
  window: PersonalWindow.nullable().optional(),
}).refine((b) => b.extra !== undefined || b.window !== undefined, { message: 'change extra or window' });
/** POST /admin/exam/invitations/accommodations body. */
export type AccommodationsBody = z.input<typeof AccommodationsBody>;

/** Data of a bulk change. */
export const BulkChangeData = z.object({
  /** Invitations changed. */
  changed: z.number().int(),
  /** Running attempts whose end moved. */
  attempts_moved: z.number().int(),
});
/** Data of a bulk change. */
export type BulkChangeData = z.infer<typeof BulkChangeData>;

/** POST /admin/attempt/reopen body. */
export const ReopenBody = z.object({
  /** The finished attempt. */
  attempt_id: Id,
  /** Why, for the audit log. */
  reason: z.string().trim().min(1).max(500),
  /**
   * Minutes the candidate gets from now; left out: the time the attempt still had when it finished (refused
   * when it had none, e.g. it ran out).
   */
  minutes: z.number().int().min(1).max(MINUTES_MAX).optional(),
});
/** POST /admin/attempt/reopen body. */
export type ReopenBody = z.input<typeof ReopenBody>;

/** POST /admin/attempt/reopen data. */
export const ReopenData = z.object({
  /** Attempt id. */
  attempt_id: z.number().int(),
  /** Its new end (epoch ms). */
  end_at: EpochMs,
});
/** POST /admin/attempt/reopen data. */
export type ReopenData = z.infer<typeof ReopenData>;

/** GET /exam/slots query. */
export const CandidateSlotsQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
});
/** GET /exam/slots query. */
export type CandidateSlotsQuery = z.input<typeof CandidateSlotsQuery>;

/** A slot as the candidate picks it: seats left, never who holds them. */
export const CandidateSlot = SlotRef.extend({
  /** Seats still free. */
  seats_left: z.number().int(),
});
/** A slot as the candidate picks it. */
export type CandidateSlot = z.infer<typeof CandidateSlot>;

/** GET /exam/slots data. */
export const CandidateSlotsData = z.object({
  /** True when the candidate may choose or change their slot now. */
  can_choose: z.boolean(),
  /** The candidate's slot, or null. */
  slot_id: z.number().int().nullable(),
  /** The exam's slots by start time. */
  list: z.array(CandidateSlot),
});
/** GET /exam/slots data. */
export type CandidateSlotsData = z.infer<typeof CandidateSlotsData>;

/** POST /exam/choose-slot body. */
export const ChooseSlotBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The slot chosen (one that has not opened yet and has a seat). */
  slot_id: Id,
  /** Makes a retry harmless (choosing the slot one holds changes nothing anyway). */
  client_id: ClientId.optional(),
});
/** POST /exam/choose-slot body. */
export type ChooseSlotBody = z.input<typeof ChooseSlotBody>;

/** POST /exam/choose-slot data. */
export const ChooseSlotData = z.object({
  /** The slot the candidate holds now. */
  slot: SlotRef,
});
/** POST /exam/choose-slot data. */
export type ChooseSlotData = z.infer<typeof ChooseSlotData>;

/** A device or document to have ready for the exam's checks. */
export const PrepareItem = z.object({
  /** What: camera, microphone, screen (sharing), phone (second camera), signature (the pledge), id_photo. */
  item: z.enum(['camera', 'microphone', 'screen', 'phone', 'signature', 'id_photo']),
  /** True when the exam lets the candidate skip it. */
  optional: z.boolean(),
});
/** A device or document to have ready. */
export type PrepareItem = z.infer<typeof PrepareItem>;
