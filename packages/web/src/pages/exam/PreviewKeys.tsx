import { lazy, Suspense, useState } from 'react';
import { useParams } from 'react-router';
import { readPreview, savePreview, type PreviewMarker } from './previewMode.js';

/** The panel with the keys, loaded only on a preview attempt (candidates never download it). */
const KeyPanel = lazy(() => import('./PreviewKeyPanel.js'));

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Under a question of a preview attempt (opened from the console's exam editor): a switch that shows the
 * question's answer key. Nothing at all on a real attempt.
 */
export function PreviewKeys({ examId, subjectId }: { examId: number; subjectId: number }) {
  // The invitation is in the page address (/exam/:id/:anid/answer).
  const anid = Number(useParams().anid);
  const [marker, setMarker] = useState<PreviewMarker | null>(() => {
    const s = storage();
    return s ? readPreview(s, examId, anid, Date.now()) : null;
  });
  if (!marker) return null;
  const toggle = (show: boolean) => {
    const next = { ...marker, show_keys: show };
    const s = storage();
    if (s) savePreview(s, next);
    setMarker(next);
  };
  return (
    <Suspense fallback={null}>
      <KeyPanel marker={marker} subjectId={subjectId} onToggle={toggle} />
    </Suspense>
  );
}
