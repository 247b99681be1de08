import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Dropdown } from 'antd';
import { errorText } from '../../../../api/client.js';
import { useI18n } from '../../../../i18n/index.js';
import { useExport, useFormats, type ExportSource } from '../importQueries.js';

/** A menu of the server's formats that downloads the source's questions in the one chosen. */
export function ExportMenu({ source, testId = 'export-menu' }: { source: ExportSource | null; testId?: string }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const formats = useFormats();
  const run = useExport();
  const items = (formats.data?.list ?? []).map((f) => ({
    key: f.format,
    label: <span data-testid={`export-format-${f.format}`}>{`${f.label} (.${f.extension})`}</span>,
  }));
  return (
    <Dropdown
      disabled={!source || items.length === 0}
      trigger={['click']}
      menu={{
        items,
        onClick: ({ key }) => {
          if (!source) return;
          run.mutate(
            { source, format: key },
            {
              onSuccess: (name) => void message.success(t('console.export.done', { name })),
              onError: (e) => void message.error(errorText(e)),
            },
          );
        },
      }}
    >
      <Button icon={<DownloadOutlined aria-hidden />} loading={run.isPending} data-testid={testId}>
        {t('console.export.button')}
      </Button>
    </Dropdown>
  );
}
