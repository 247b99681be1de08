/** Camera: a live mirrored preview, then the first picture, whose face check must find exactly the candidate. */
import { cameraProblem, type CameraProblem } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Space } from 'antd';
import { errorText } from '../../api/client.js';
import { useI18n, type MessageKey } from '../../i18n/index.js';
import { openCamera } from '../devices.js';
import { takeFirstPicture, type FirstPictureResult } from '../checks.js';
import { useDevice, useRecordCheck, type StepProps } from './hooks.js';
import { DeviceStep, StreamPreview } from './widgets.js';

/** What the candidate is told to fix, per reason the picture does not pass. */
const FIX: Record<CameraProblem, MessageKey> = {
  no_face: 'proctor.camera.noFace',
  several_faces: 'proctor.camera.manyFaces',
  id_mismatch: 'proctor.camera.idMismatch',
};

/** The face check's answer about the first picture: passed, or what to fix. */
function FaceResult({ picture }: { picture: FirstPictureResult }) {
  const { t } = useI18n();
  if (!picture.face) {
    return (
      <Alert
        type="warning"
        showIcon
        role="alert"
        data-testid="face-result"
        data-picture={picture.key}
        data-faces="error"
        data-verdict="error"
        style={{ marginTop: 12 }}
        title={t('proctor.camera.faceFailed', { msg: picture.faceError ?? '' })}
      />
    );
  }
  const faces = picture.face.face_count;
  const problem = cameraProblem(faces, picture.face.id_similarity);
  return (
    <Alert
      type={problem === null ? 'success' : 'error'}
      showIcon
      role={problem === null ? 'status' : 'alert'}
      data-testid="face-result"
      data-picture={picture.key}
      data-faces={faces}
      data-verdict={problem ?? 'passed'}
      style={{ marginTop: 12 }}
      title={t('proctor.camera.faces', { n: faces })}
      description={problem !== null ? t(FIX[problem]) : t('proctor.camera.ok')}
    />
  );
}

/** Camera: the step passes only once the first picture shows exactly the candidate's face. */
export function CameraStep(props: StepProps) {
  const { t } = useI18n();
  const device = useDevice('camera', () => openCamera('user'));
  const record = useRecordCheck(props, 'camera');
  const take = useMutation({
    mutationFn: (stream: MediaStream) => takeFirstPicture(props.examId, stream),
  });
  const picture = take.isPending ? null : (take.data ?? null);
  const good = !!picture?.face && cameraProblem(picture.face.face_count, picture.face.id_similarity) === null;

  return (
    <DeviceStep
      props={props}
      step="camera"
      device={device}
      record={record}
      intro={t('proctor.camera.intro')}
      openLabel={t('proctor.camera.open')}
      canPass={good || props.recorded}
    >
      {(stream) => (
        <>
          <StreamPreview stream={stream} mirror label={t('proctor.camera.preview')} />
          <Space wrap style={{ marginTop: 12 }}>
            <Button
              onClick={() => take.mutate(stream)}
              loading={take.isPending}
              data-testid="take-picture"
              type={picture ? 'default' : 'primary'}
            >
              {picture ? t('proctor.camera.retake') : t('proctor.camera.take')}
            </Button>
          </Space>
          {take.isError && (
            <Alert
              type="error"
              showIcon
              role="alert"
              title={t('proctor.camera.pictureFailed', { msg: errorText(take.error) })}
              style={{ marginTop: 12 }}
            />
          )}
          {picture && <FaceResult picture={picture} />}
        </>
      )}
    </DeviceStep>
  );
}
