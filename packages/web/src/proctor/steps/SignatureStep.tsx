/** Signature: the pledge signed on a pad (or the name typed), stored as PNG; it cannot be skipped. */
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Input, Space, Typography } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import SignaturePad from 'signature_pad';
import { errorText } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { recordCheck, saveSignature } from '../checks.js';
import { canvasBlob } from '../frames.js';
import type { StepProps } from './hooks.js';

/** Sizes the canvas to its box at the device's pixel ratio (the pad draws sharp lines then). */
function fitCanvas(canvas: HTMLCanvasElement): void {
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  canvas.width = canvas.offsetWidth * ratio;
  canvas.height = canvas.offsetHeight * ratio;
  canvas.getContext('2d')?.scale(ratio, ratio);
}

/** Signature: the pledge text signed on a pad (or the name typed, for keyboard users), stored as PNG. */
export function SignatureStep(props: StepProps & { pledge: ReactNode }) {
  const { t } = useI18n();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const [drawn, setDrawn] = useState(false);
  const [typed, setTyped] = useState('');
  const [promised, setPromised] = useState(false);
  const [tried, setTried] = useState(false);
  const save = useMutation({
    mutationFn: async (canvas: HTMLCanvasElement) => {
      await saveSignature(props.examId, await canvasBlob(canvas, 'image/png'));
      await recordCheck(props.examId, 'signature', 'passed');
    },
    onSuccess: () => props.onDone('passed'),
  });
  const error = save.isError ? errorText(save.error) : null;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    fitCanvas(canvas);
    const pad = new SignaturePad(canvas, { backgroundColor: 'rgb(255,255,255)', penColor: '#1f1f1f' });
    pad.addEventListener('endStroke', () => setDrawn(!pad.isEmpty()));
    padRef.current = pad;
    return () => {
      pad.off();
      padRef.current = null;
    };
  }, []);

  // A typed name is written on the pad in a handwriting-like font, so the stored image is one kind.
  useEffect(() => {
    const canvas = canvasRef.current;
    const pad = padRef.current;
    if (!canvas || !pad || drawn) return;
    pad.clear();
    const ctx = canvas.getContext('2d');
    if (!ctx || !typed.trim()) return;
    ctx.fillStyle = '#1f1f1f';
    ctx.font = `italic 36px "Segoe Script", "Brush Script MT", "KaiTi", cursive`;
    ctx.textBaseline = 'middle';
    ctx.fillText(typed.trim(), 24, canvas.offsetHeight / 2, canvas.offsetWidth - 48);
  }, [typed, drawn]);

  const clear = () => {
    padRef.current?.clear();
    setDrawn(false);
    setTyped('');
  };

  const signed = drawn || typed.trim().length > 0;
  const submit = () => {
    setTried(true);
    const canvas = canvasRef.current;
    if (promised && signed && canvas) save.mutate(canvas);
  };

  return (
    <section aria-labelledby="pledge-title" className="pledge" data-testid="step-signature">
      <Typography.Title level={2} style={{ fontSize: 18 }} id="pledge-title">
        {t('monitor.pledgeTitle')}
      </Typography.Title>
      {props.pledge}
      <Checkbox checked={promised} onChange={(e) => setPromised(e.target.checked)} data-testid="pledge-check">
        {t('monitor.promise')}
      </Checkbox>
      <Typography.Paragraph style={{ marginTop: 12 }} id="signature-label">
        {t('proctor.signature.intro')}
      </Typography.Paragraph>
      <canvas
        ref={canvasRef}
        className="signature-pad"
        aria-labelledby="signature-label"
        role="img"
        data-testid="signature-pad"
      />
      <Space wrap style={{ marginTop: 8 }}>
        <Input
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          disabled={drawn}
          maxLength={40}
          placeholder={t('proctor.signature.typePlaceholder')}
          aria-label={t('proctor.signature.typeLabel')}
          data-testid="signature-typed"
          style={{ width: 260 }}
        />
        <Button onClick={clear} data-testid="signature-clear">
          {t('proctor.signature.clear')}
        </Button>
      </Space>
      {tried && (!promised || !signed) && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={!promised ? t('monitor.pledgeNeeded') : t('proctor.signature.needed')}
          style={{ marginTop: 8 }}
        />
      )}
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('proctor.recordFailed', { msg: error })}
          style={{ marginTop: 8 }}
        />
      )}
      <div style={{ marginTop: 12 }}>
        <Button type="primary" loading={save.isPending} onClick={submit} data-testid="signature-submit">
          {t('proctor.signature.submit')}
        </Button>
      </div>
    </section>
  );
}
