import { api, FACE_IMG_MAX_BYTES } from '@examhall/contract';
import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Image, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { errorText, isApiError, upload } from '../../../../api/client.js';
import { useI18n } from '../../../../i18n/index.js';
import { attemptKey } from '../liveGrid.js';

/** The ID photo's size limit in MB, for the texts. */
const MAX_MB = FACE_IMG_MAX_BYTES / 1024 / 1024;

/**
 * The ID photo of the candidate's invitation, which face checks compare camera pictures with; a proctor who
 * decides on flags can upload or replace it (the server refuses one that does not show exactly one face).
 */
export function IdPhoto(props: { examId: number; attemptId: number; url: string | null; canSet: boolean }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (file: File) =>
      upload(api.proctorIdPhoto, { exam_id: props.examId, attempt_id: props.attemptId, id_photo: file }),
    onMutate: () => setError(null),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: attemptKey(props.attemptId) });
      void message.success(t('console.proctor.idPhotoSaved'));
    },
    onError: (e) => {
      if (isApiError(e) && e.code === 'id_photo_no_single_face') setError(t('console.proctor.idPhotoNoFace'));
      else setError(errorText(e));
    },
  });
  const pick = (file: File) => {
    if (file.type !== 'image/jpeg' && file.type !== 'image/png') setError(t('console.proctor.idPhotoType'));
    else if (file.size > FACE_IMG_MAX_BYTES) setError(t('console.proctor.idPhotoTooLarge', { mb: MAX_MB }));
    else send.mutate(file);
    // The upload is ours (multipart with the exam and attempt): Upload only picks the file.
    return false;
  };
  return (
    <section aria-labelledby="proctor-id-photo-title" data-testid="proctor-id-photo">
      <Typography.Title level={2} id="proctor-id-photo-title" style={{ fontSize: 16 }}>
        {t('console.proctor.idPhoto')}
      </Typography.Title>
      <Space align="start" wrap>
        {props.url ? (
          <span data-testid="proctor-id-photo-image">
            <Image src={props.url} width={120} alt={t('console.proctor.idPhotoAlt')} style={{ borderRadius: 4 }} />
          </span>
        ) : (
          <Typography.Text type="secondary">{t('console.proctor.noIdPhoto')}</Typography.Text>
        )}
        {props.canSet && (
          <Space orientation="vertical" size={4}>
            <Upload accept="image/jpeg,image/png" showUploadList={false} maxCount={1} beforeUpload={pick}>
              <Button
                icon={<UploadOutlined aria-hidden />}
                loading={send.isPending}
                data-testid="proctor-id-photo-upload"
              >
                {props.url ? t('console.proctor.idPhotoReplace') : t('console.proctor.idPhotoUpload')}
              </Button>
            </Upload>
            <Typography.Text type="secondary">{t('console.proctor.idPhotoHint', { mb: MAX_MB })}</Typography.Text>
          </Space>
        )}
      </Space>
      {error && (
        <Typography.Paragraph type="danger" role="alert" data-testid="proctor-id-photo-error" style={{ marginTop: 8 }}>
          {error}
        </Typography.Paragraph>
      )}
    </section>
  );
}
