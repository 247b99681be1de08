/** The error catalogue: stable codes, HTTP statuses and messages (docs/contract.md#errors). */

/** Descriptions the client logs next to a failed call's HTTP status. */
export const HTTP_STATUS_DESCRIPTIONS: Readonly<Record<number, string>> = {
  200: 'success',
  201: 'created',
  202: 'queued',
  204: 'deleted',
  400: 'bad request',
  401: 'no permission',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  406: 'format unavailable',
  410: 'gone',
  422: 'validation error',
  500: 'server error',
  502: 'gateway error',
  503: 'unavailable/maintenance',
  504: 'gateway timeout',
};

/** Every error the API can answer with; `msg` is the default English message. */
export const ERRORS = {
  bad_request: { status: 400, msg: 'bad request' },
  not_logged_in: { status: 401, msg: 'not logged in' },
  forbidden: { status: 403, msg: 'forbidden' },
  cross_origin: { status: 403, msg: "a write signed in by cookie must come from this site's own pages" },
  blind_marking: {
    status: 403,
    msg: "this exam's marking is blind: who its candidates are stays hidden from graders until the marking is done",
  },
  not_found: { status: 404, msg: 'not found' },
  method_not_allowed: { status: 405, msg: 'method not allowed' },
  not_acceptable: { status: 406, msg: 'this call answers only text/event-stream' },
  conflict: { status: 409, msg: 'conflict' },
  exam_finished: { status: 409, msg: 'the exam has finished' },
  exam_not_open: { status: 409, msg: 'the exam is not open now' },
  seb_required: { status: 409, msg: 'this exam is taken in Safe Exam Browser with its settings file (.seb)' },
  admission_queue: {
    status: 429,
    msg: 'many candidates are starting at once: you are in the queue, your turn comes shortly',
  },
  slot_full: { status: 409, msg: 'this time slot has no seat left' },
  slot_locked: { status: 409, msg: 'the time slot cannot be chosen or changed now' },
  attempt_not_reopenable: { status: 409, msg: 'this attempt cannot be reopened' },
  exam_not_started: { status: 409, msg: 'the exam has not started yet; finish the device checks first' },
  exam_not_finished: { status: 409, msg: 'the exam has not been submitted yet' },
  explanations_hidden: { status: 403, msg: 'this exam does not show its explanations' },
  play_limit_reached: { status: 409, msg: 'the audio has been played as often as allowed' },
  payload_too_large: { status: 413, msg: 'payload too large' },
  request_timeout: { status: 408, msg: 'the request took too long to arrive' },
  headers_too_large: { status: 431, msg: 'the address or the headers are too long' },
  unsupported_media_type: { status: 415, msg: 'unsupported media type' },
  validation_error: { status: 422, msg: 'validation error' },
  invalid_phone: { status: 422, msg: 'invalid phone number' },
  sms_code_invalid: { status: 422, msg: 'wrong verification code' },
  sms_code_expired: { status: 422, msg: 'verification code expired, please request a new one' },
  sms_code_exhausted: { status: 422, msg: 'too many wrong tries, please request a new code' },
  invalid_credentials: { status: 401, msg: 'wrong phone number or password' },
  totp_required: { status: 401, msg: 'enter the code from your authenticator app' },
  // 422 like a wrong SMS code: a 401 would tell the web client that the session is gone.
  totp_invalid: { status: 422, msg: 'wrong or already used code' },
  password_incorrect: { status: 422, msg: 'the password is wrong' },
  totp_enrolment_required: {
    status: 403,
    msg: 'this account must turn on two-factor authentication before using the console',
  },
  // Single sign-on: each refusal says why, in the login page's language (the callback leads there naming the code).
  sso_not_configured: { status: 404, msg: 'single sign-on with this method is not set up here' },
  sso_state_invalid: {
    status: 400,
    msg: 'the sign-in was not started in this browser, or took too long; start it again',
  },
  sso_provider_error: { status: 502, msg: 'the identity provider refused the sign-in or did not answer' },
  sso_signature_invalid: { status: 401, msg: "the identity provider's signature on the sign-in is not valid" },
  sso_unsigned: { status: 401, msg: 'the sign-in carries no signature of the identity provider' },
  sso_nonce_mismatch: { status: 401, msg: 'the sign-in answers another request than the one this browser made' },
  sso_audience_mismatch: { status: 401, msg: 'the sign-in was issued for another application' },
  sso_token_expired: { status: 401, msg: 'the sign-in has expired; start it again' },
  sso_clock_skew: {
    status: 401,
    msg: "the sign-in is dated in the future: this server's clock and the identity provider's disagree",
  },
  sso_replayed: { status: 401, msg: 'this sign-in has already been used' },
  sso_token_invalid: { status: 401, msg: "the identity provider's answer could not be verified" },
  sso_claim_missing: {
    status: 403,
    msg: 'the identity provider did not say who you are (the phone or e-mail this site asks for)',
  },
  sso_unknown_account: { status: 403, msg: 'no account here belongs to this identity; ask an admin to create one' },
  sso_no_mapped_team: {
    status: 403,
    msg: 'none of your groups at the identity provider is mapped to a team here; ask an admin',
  },
  sso_account_disabled: { status: 403, msg: 'this account is disabled' },
  sso_required: {
    status: 403,
    msg: 'staff sign in with the company identity provider here: use the single sign-on button',
  },
  rate_limited: { status: 429, msg: 'too many requests, please try again later' },
  sms_too_frequent: { status: 429, msg: 'a code was sent recently, please wait before requesting another' },
  sms_daily_limit: { status: 429, msg: 'daily limit of verification codes reached for this phone' },
  sms_queue_full: {
    status: 429,
    msg: 'very many verification codes are being sent at once, please request yours again in a minute',
  },
  // A resend whose every text a budget held back; `data` names the budget (`limit`), how many texts it held
  // (`held`), the budget's figure (`max`, with `minutes` for an interval) and when the first may go (`retry_after`, s).
  sms_resend_too_frequent: { status: 429, msg: 'these invitations were texted again a few minutes ago; wait a little' },
  sms_resend_daily_limit: { status: 429, msg: 'these invitations have been texted again as often as a day allows' },
  sms_phone_daily_limit: { status: 429, msg: 'these phones have had as many texts today as a day allows' },
  sms_exam_daily_limit: { status: 429, msg: "this exam's texts for today are used up" },
  sms_team_daily_limit: { status: 429, msg: "the team's texts for today are used up" },
  account_locked: { status: 429, msg: 'too many failed logins, please try again later' },
  exam_detail_missing: { status: 404, msg: 'failed to get exam detail' },
  warning_not_found: { status: 404, msg: 'no such warning for this attempt' },
  step_not_skippable: { status: 409, msg: 'this check cannot be skipped in this exam' },
  checks_incomplete: { status: 409, msg: 'the exam starts once every device check it requires has passed' },
  camera_check_failed: {
    status: 409,
    msg: 'the camera check passes on a first picture that shows exactly your face; take the picture again',
  },
  phone_not_connected: {
    status: 409,
    msg: 'the phone has not connected yet; open the link of the QR code on your phone first',
  },
  key_outside_attempt: { status: 403, msg: "the object is not under this attempt's storage prefix" },
  evidence_missing: { status: 422, msg: 'the object was not found in storage; upload it first' },
  evidence_digest_mismatch: { status: 422, msg: 'the stored object does not match the SHA-256 sent' },
  storage_quota_exceeded: {
    status: 409,
    msg: "this attempt's storage quota is used up: no more pictures or recordings are accepted",
  },
  evidence_too_large: {
    status: 413,
    msg: 'the object is larger than a picture or recording of its kind may be',
  },
  phone_link_invalid: { status: 401, msg: 'the phone link has expired; scan the QR code again' },
  image_unreadable: { status: 422, msg: 'the picture could not be read as an image' },
  id_photo_no_single_face: { status: 422, msg: 'the ID photo must show exactly one face' },
  id_photo_missing: {
    status: 409,
    msg: 'this exam needs an ID photo on your invitation before it starts; ask the organiser to add one',
  },
  last_admin: { status: 409, msg: 'at least one enabled admin account must remain' },
  revision_stale: {
    status: 409,
    msg: 'someone else saved this in the meantime; reload it and apply your change again',
  },
  exam_archived: { status: 409, msg: 'the exam is archived; bring it back first' },
  exam_not_published: { status: 409, msg: 'the exam has no published version yet' },
  exam_invalid: { status: 422, msg: 'the exam cannot be published as it is' },
  webhook_address_refused: {
    status: 422,
    msg: 'the address is this machine, a private network or another address that is not public',
  },
  draw_pool_too_small: { status: 422, msg: 'a draw section asks for more questions than its pool holds' },
  reference_solution_failed: { status: 422, msg: "a programming question's reference solution fails a case" },
  question_invalid: { status: 422, msg: 'a stored question no longer fits its type; open it in the bank and fix it' },
  // `data` of a file refused whole (both imports): the importers package's problem code (`problem`, e.g.
  // `sheet_too_many_rows`, `too_many_questions`) and, for a file over a bound, the bound (`limit`).
  import_refused: { status: 422, msg: 'the file cannot be read as a question file' },
  import_has_errors: {
    status: 422,
    msg: 'the file has questions that cannot be read; fix them, or import only the valid ones',
  },
  import_file_changed: { status: 409, msg: 'the file is not the one previewed; preview it again' },
  format_unknown: { status: 422, msg: 'no such question file format' },
  candidate_phone_taken: { status: 409, msg: 'another candidate has this phone number' },
  candidate_in_other_team: {
    status: 409,
    msg: "this phone is another team's candidate; an admin can add the person to your team",
  },
  candidate_phone_shared: {
    status: 409,
    msg: "this candidate is shared with another team: only an admin can change the candidate's phone",
  },
  candidate_import_refused: { status: 422, msg: 'the file cannot be read as a candidate list' },
  job_finished: { status: 409, msg: 'the job has already finished' },
  job_cancel_forbidden: {
    status: 403,
    msg: "only the job's owner, an author of its team or an admin may cancel it",
  },
  answer_already_graded: { status: 409, msg: 'this answer has all the marks it needs' },
  reconcile_own_mark: {
    status: 403,
    msg: 'one of the marks is yours: another grader, an author of the team or an admin reconciles them',
  },
  folder_not_empty: { status: 409, msg: 'the folder is not empty; move or delete what it holds first' },
  internal_error: { status: 500, msg: 'server error' },
  sms_delivery_failed: { status: 502, msg: 'the verification code could not be sent' },
  language_unavailable: { status: 503, msg: 'toolchain not installed on this host' },
  storage_unavailable: { status: 503, msg: 'file storage is not answering; try again shortly' },
  // The local store keeps a reserve of its disk for the database: evidence waits in the browser meanwhile.
  storage_full: {
    status: 503,
    msg: 'file storage is full for now: its disk is down to the room kept for answers; try again later',
  },
  database_unavailable: { status: 503, msg: 'the database is not answering; try again shortly' },
  maintenance: { status: 503, msg: 'system maintenance upgrade in progress' },
} as const satisfies Record<string, { status: number; msg: string }>;

/** A stable error code. */
export type ErrorCode = keyof typeof ERRORS;

/** Every error code. */
export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** Messages the client raises itself: a timeout, a lost session, a failed frame upload, a missing exam detail. */
export const CLIENT_MESSAGES = {
  timeout: 'response timeout, please retry',
  notLoggedIn: 'not logged in',
  uploadFailed: 'upload failed',
  examDetailMissing: 'failed to get exam detail',
} as const;
