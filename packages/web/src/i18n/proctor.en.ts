import type { proctorZh } from './proctor.zh.js';

/** English texts of the proctor's grid (filters, order, pages) and the attempt timeline's filters and media. */
export const proctorEn: Record<keyof typeof proctorZh, string> = {
  'proctor.grid.title': '{name} · live',
  'proctor.grid.filter': 'Filter candidates',
  'proctor.grid.filter.all': 'All {n}',
  'proctor.grid.filter.risk': 'With risks {n}',
  'proctor.grid.filter.flags': 'Open flags {n}',
  'proctor.grid.filter.offline': 'Offline {n}',
  'proctor.grid.filter.phone_lost': 'Phone lost {n}',
  'proctor.grid.sort': 'Order',
  'proctor.grid.sort.attempt': 'In order of entry',
  'proctor.grid.sort.risk': 'Most risks first',
  'proctor.grid.sort.flags': 'Most open flags first',
  'proctor.grid.sort.name': 'By name',
  'proctor.grid.total': '{n} candidates',
  'proctor.grid.storageFull':
    "The server's storage is full: candidates' pictures and recordings cannot be received for now",
  'proctor.grid.storageFullHint':
    "Answers are still saved. Pictures and recordings wait on candidates' computers and are sent once there is room: ask the operator to free space on the disk holding DATA_DIR.",
  'proctor.grid.noMatch': 'No candidate matches the filter',
  'proctor.timeline.flagsOnly': 'Flags only',
  'proctor.timeline.kind': 'Record kind',
  'proctor.timeline.allKinds': 'All kinds',
  'proctor.timeline.noMatch': 'No record matches the filter',
  'proctor.timeline.recording': 'Recording at {time}',
};
