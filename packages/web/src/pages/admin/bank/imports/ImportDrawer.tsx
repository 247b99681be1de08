import { FolderAddOutlined, UploadOutlined } from '@ant-design/icons';
import type { ImportPreviewData, JobView } from '@examhall/contract';
import { Alert, App, Button, Checkbox, Drawer, Select, Space, TreeSelect, Typography, Upload } from 'antd';
import { Form } from '../../../../shell/Form.js';
import { useMemo, useState } from 'react';
import { errorText } from '../../../../api/client.js';
import { useI18n } from '../../../../i18n/index.js';
import { FolderNameModal } from '../FolderNameModal.js';
import { folderOptions, folderPath, type FolderOption } from '../folderTree.js';
import { useFolders, useTags } from '../queries.js';
import { useFormats, useImport, usePreview } from '../importQueries.js';
import { JobProgress } from '../../jobs/JobProgress.js';
import { ImportPreviewTable } from './ImportPreviewTable.js';
import { ImportProblems } from './ImportProblems.js';
import { TemplateButton } from './TemplateButton.js';

/**
 * The import flow: choose a folder and a file (and a format when the file does not tell), see the file's counts,
 * its first questions as they will be stored and its first problems (the server answers a page: a file may hold
 * 20,000 questions), then import all (or only the valid ones), with tags. A new file starts a new preview;
 * nothing is stored before Import, which runs as a job whose progress shows here.
 */
export function ImportDrawer(props: {
  open: boolean;
  folderId: number | null;
  onClose: () => void;
  onImported: (folderId: number) => void;
}) {
  const { t, lang } = useI18n();
  const { message } = App.useApp();
  const folders = useFolders();
  const tags = useTags();
  const formats = useFormats();
  const preview = usePreview();
  const [job, setJob] = useState<JobView | null>(null);
  const commit = useImport(setJob);
  const [folderId, setFolderId] = useState<number | null>(props.folderId);
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<string | null>(null);
  const [chosenTags, setChosenTags] = useState<string[]>([]);
  const [onlyValid, setOnlyValid] = useState(false);
  const list = useMemo(() => folders.data?.list ?? [], [folders.data]);
  const treeData = useMemo(() => folderOptions(list, (f) => f.id), [list]);
  const shown: ImportPreviewData | undefined = preview.data;
  const hasErrors = (shown?.counts.errors ?? 0) > 0;

  const read = (next: { file?: File | null; format?: string | null; folderId?: number | null }) => {
    const f = next.file === undefined ? file : next.file;
    const fmt = next.format === undefined ? format : next.format;
    const folder = next.folderId === undefined ? folderId : next.folderId;
    commit.reset();
    setOnlyValid(false);
    if (f && folder !== null) preview.mutate({ file: f, folderId: folder, format: fmt });
    else preview.reset();
  };

  const close = () => {
    preview.reset();
    commit.reset();
    setFile(null);
    setFormat(null);
    setChosenTags([]);
    props.onClose();
  };

  const doImport = () => {
    if (!file || folderId === null || !shown) return;
    commit.mutate(
      { file, folderId, format, tags: chosenTags, onlyValid, sha256: shown.sha256 },
      {
        onSuccess: (done) => {
          void message.success(t('console.import.done', { n: done.question_ids.length }));
          props.onImported(folderId);
          close();
        },
      },
    );
  };

  return (
    <Drawer
      open={props.open}
      onClose={close}
      title={t('console.import.title')}
      // Room for the preview table's columns (antd's "large" is 736 px, and `size` wins over `width`).
      size={960}
      destroyOnHidden
      extra={
        <Button
          type="primary"
          onClick={doImport}
          disabled={!shown || shown.counts.valid === 0 || (hasErrors && !onlyValid) || preview.isPending}
          loading={commit.isPending}
          data-testid="import-commit"
        >
          {hasErrors && onlyValid
            ? t('console.import.importValid', { n: shown?.counts.valid ?? 0 })
            : t('console.import.import', { n: shown?.counts.questions ?? 0 })}
        </Button>
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Form layout="vertical">
          <FolderField
            treeData={treeData}
            empty={list.length === 0 && folders.isSuccess}
            folderId={folderId}
            onChange={(v) => {
              setFolderId(v);
              read({ folderId: v });
            }}
          />
          <Form.Item label={t('console.import.file')} extra={t('console.import.fileHint')}>
            <Space wrap>
              <Upload
                accept=".gift,.txt,.xml,.zip,.xlsx,.csv"
                maxCount={1}
                showUploadList={false}
                beforeUpload={(f) => {
                  setFile(f);
                  read({ file: f });
                  // Kept in the page: the file goes up with the preview and again with the import.
                  return false;
                }}
              >
                <Button icon={<UploadOutlined aria-hidden />} data-testid="import-file">
                  {file ? file.name : t('console.import.chooseFile')}
                </Button>
              </Upload>
              <Select
                style={{ minWidth: 200 }}
                value={format ?? ''}
                onChange={(v: string) => {
                  setFormat(v || null);
                  read({ format: v || null });
                }}
                options={[
                  { value: '', label: t('console.import.detect') },
                  ...(formats.data?.list ?? []).map((f) => ({ value: f.format, label: f.label })),
                ]}
                aria-label={t('console.import.format')}
                data-testid="import-format"
              />
              <TemplateButton />
            </Space>
          </Form.Item>
        </Form>
        {folderId === null && file && <Alert type="info" showIcon title={t('console.import.chooseFolder')} />}
        {preview.isError && (
          <Alert type="error" showIcon title={errorText(preview.error)} data-testid="import-refused" />
        )}
        {commit.isError && <Alert type="error" showIcon title={errorText(commit.error)} />}
        {commit.isPending && job && <JobProgress job={job} />}
        {shown && (
          <>
            <Alert
              type={hasErrors ? 'warning' : 'success'}
              showIcon
              data-testid="import-summary"
              title={t('console.import.summary', {
                n: shown.counts.questions,
                errors: shown.counts.errors,
                warnings: shown.counts.warnings,
              })}
            />
            <ImportProblems problems={shown.problems} total={shown.counts.problems} />
            {shown.counts.questions > shown.questions.length && (
              <Typography.Text type="secondary" data-testid="import-shown">
                {t('console.import.shown', {
                  shown: shown.questions.length,
                  n: shown.counts.questions.toLocaleString(lang),
                })}
              </Typography.Text>
            )}
            <ImportPreviewTable questions={shown.questions} folderPath={folderPath(list, folderId)} />
            <Form layout="vertical">
              <Form.Item label={t('console.import.tags')} extra={t('console.import.tagsHint')}>
                <Select
                  mode="tags"
                  value={chosenTags}
                  onChange={setChosenTags}
                  options={(tags.data?.list ?? []).map((tg) => ({ value: tg.tag, label: tg.tag }))}
                  aria-label={t('console.import.tags')}
                  data-testid="import-tags"
                />
              </Form.Item>
              {hasErrors && (
                <Checkbox
                  checked={onlyValid}
                  onChange={(e) => setOnlyValid(e.target.checked)}
                  data-testid="import-only-valid"
                >
                  {t('console.import.onlyValid', { n: shown.counts.valid })}
                </Checkbox>
              )}
            </Form>
          </>
        )}
      </Space>
    </Drawer>
  );
}

/**
 * The folder the questions go into, with a folder made in place (then chosen); with no folders yet it says so and
 * why (imports go into a folder: the file's categories become its sub-folders).
 */
function FolderField(props: {
  treeData: FolderOption<number>[];
  empty: boolean;
  folderId: number | null;
  onChange: (folderId: number) => void;
}) {
  const { t } = useI18n();
  const [naming, setNaming] = useState(false);
  return (
    <Form.Item
      label={t('console.import.folder')}
      required
      extra={props.empty ? t('console.import.noFolders') : t('console.import.folderHint')}
    >
      <Space.Compact style={{ width: '100%' }}>
        <TreeSelect
          value={props.folderId ?? undefined}
          onChange={props.onChange}
          treeData={props.treeData}
          treeDefaultExpandAll
          placeholder={t('console.import.chooseFolder')}
          notFoundContent={t('console.import.noFolders')}
          aria-label={t('console.import.folder')}
          data-testid="import-folder"
        />
        <Button
          icon={<FolderAddOutlined aria-hidden />}
          onClick={() => setNaming(true)}
          data-testid="import-new-folder"
        >
          {t('console.bank.newFolder')}
        </Button>
      </Space.Compact>
      <FolderNameModal
        open={naming}
        mode="create"
        parent={null}
        onClose={() => setNaming(false)}
        onCreated={props.onChange}
      />
    </Form.Item>
  );
}
