import { PictureOutlined } from '@ant-design/icons';
import { EditorContent, mergeAttributes, Node, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Space, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useI18n, type MessageKey } from '../../i18n/index.js';

interface Props {
  /** The HTML at mount; the editor owns the text afterwards (it is keyed by question). */
  initialHtml: string;
  /**
   * When given, the editor follows it: HTML that differs from what the editor last reported (another
   * question loaded, options reordered) replaces its text.
   */
  value?: string;
  onChange: (html: string) => void;
  /** Called instead of pasting or dropping when the exam forbids it; null when allowed. */
  onPasteBlocked: (() => void) | null;
  /** Stores a picture and answers its address; when given, pictures can be inserted, pasted and dropped. */
  onUploadImage?: (file: File) => Promise<string>;
  /** Only bold, italic and the picture button (options). */
  compact?: boolean;
  label: string;
  /** The text area's test id ('qa-editor' unless said). */
  testId?: string;
  /** Shown, not edited: no toolbar (a question viewed without the right to change it). */
  readOnly?: boolean;
}

/** A picture in the text: `<img src alt>` (question stems, options and passages). */
const Picture = Node.create({
  name: 'image',
  inline: true,
  group: 'inline',
  draggable: true,
  addAttributes() {
    return { src: { default: null }, alt: { default: null }, width: { default: null }, height: { default: null } };
  },
  parseHTML() {
    return [{ tag: 'img[src]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['img', mergeAttributes(HTMLAttributes)];
  },
});

/** The extensions, made once (a new list on every render would reconfigure the editor each time). */
const PLAIN = [StarterKit.configure({ link: false })];
const WITH_PICTURES = [...PLAIN, Picture];

const imagesOf = (list: FileList | null | undefined): File[] =>
  Array.from(list ?? []).filter((f) => f.type.startsWith('image/'));

type Mark = 'bold' | 'italic' | 'bulletList' | 'orderedList' | 'codeBlock';

const TOOLS: { key: Mark; text: string; label: MessageKey }[] = [
  { key: 'bold', text: 'B', label: 'exam.qa.bold' },
  { key: 'italic', text: 'I', label: 'exam.qa.italic' },
  { key: 'bulletList', text: '•', label: 'exam.qa.bulletList' },
  { key: 'orderedList', text: '1.', label: 'exam.qa.orderedList' },
  { key: 'codeBlock', text: '</>', label: 'exam.qa.codeBlock' },
];

/**
 * The rich-text editor (Tiptap) with its toolbar: the Q&A answer (loaded only on Q&A questions) and, with
 * `onUploadImage`, the question editors' stems, options and passages.
 */
export default function RichTextEditor({
  initialHtml,
  value,
  onChange,
  onPasteBlocked,
  onUploadImage,
  compact = false,
  label,
  testId = 'qa-editor',
  readOnly = false,
}: Props) {
  const { t } = useI18n();
  const emitted = useRef(initialHtml);
  const upload = useRef(onUploadImage);
  useEffect(() => {
    upload.current = onUploadImage;
  });
  const [uploading, setUploading] = useState(0);
  const insertPictures = (e: Editor, files: File[]) => {
    const store = upload.current;
    if (!store) return;
    for (const file of files) {
      setUploading((n) => n + 1);
      store(file)
        .then((src) =>
          e
            .chain()
            .focus()
            .insertContent({ type: 'image', attrs: { src, alt: file.name } })
            .run(),
        )
        // The uploader says what went wrong; the text stays as it was.
        .catch(() => undefined)
        .finally(() => setUploading((n) => n - 1));
    }
  };
  const editor = useEditor({
    extensions: onUploadImage ? WITH_PICTURES : PLAIN,
    content: initialHtml,
    editable: !readOnly,
    immediatelyRender: true,
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : e.getHTML();
      emitted.current = html;
      onChange(html);
    },
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        class: 'rich-text-area',
        'data-testid': testId,
        // An option is a line or two, not an answer's page.
        ...(compact ? { style: 'min-height: 44px' } : {}),
      },
      handlePaste: (_view, event) => {
        if (onPasteBlocked) {
          onPasteBlocked();
          return true;
        }
        const pictures = imagesOf(event.clipboardData?.files);
        if (!upload.current || pictures.length === 0) return false;
        insertPictures(editor, pictures);
        return true;
      },
      handleDrop: (_view, event) => {
        if (onPasteBlocked) {
          onPasteBlocked();
          return true;
        }
        const pictures = imagesOf(event.dataTransfer?.files);
        if (!upload.current || pictures.length === 0) return false;
        insertPictures(editor, pictures);
        return true;
      },
    },
  });
  useEffect(() => {
    if (value === undefined || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [value, editor]);
  const fileInput = useRef<HTMLInputElement>(null);
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      codeBlock: e.isActive('codeBlock'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });

  const toggle = (mark: Mark) => {
    const chain = editor.chain().focus();
    switch (mark) {
      case 'bold':
        return chain.toggleBold().run();
      case 'italic':
        return chain.toggleItalic().run();
      case 'bulletList':
        return chain.toggleBulletList().run();
      case 'orderedList':
        return chain.toggleOrderedList().run();
      case 'codeBlock':
        return chain.toggleCodeBlock().run();
    }
  };

  const tools = compact ? TOOLS.filter((tool) => tool.key === 'bold' || tool.key === 'italic') : TOOLS;
  return (
    <div className="rich-text">
      {!readOnly && (
        <Space role="toolbar" aria-label={t('exam.qa.toolbar')} size={4} wrap className="rich-text-toolbar">
          {tools.map((tool) => (
            <Tooltip key={tool.key} title={t(tool.label)}>
              <Button
                size="small"
                aria-pressed={active[tool.key]}
                type={active[tool.key] ? 'primary' : 'default'}
                onClick={() => toggle(tool.key)}
              >
                {/* The name is the function's, not the glyph's. */}
                <span aria-hidden>{tool.text}</span>
                <span className="visually-hidden">{t(tool.label)}</span>
              </Button>
            </Tooltip>
          ))}
          {!compact && (
            <>
              <Button size="small" disabled={!active.canUndo} onClick={() => editor.chain().focus().undo().run()}>
                {t('exam.qa.undo')}
              </Button>
              <Button size="small" disabled={!active.canRedo} onClick={() => editor.chain().focus().redo().run()}>
                {t('exam.qa.redo')}
              </Button>
            </>
          )}
          {onUploadImage && (
            <>
              <input
                ref={fileInput}
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                className="visually-hidden"
                tabIndex={-1}
                aria-label={t('qedit.image.insert')}
                onChange={(e) => {
                  insertPictures(editor, imagesOf(e.target.files));
                  e.target.value = '';
                }}
                data-testid="image-input"
              />
              <Tooltip title={t('qedit.image.insert')}>
                <Button
                  size="small"
                  icon={<PictureOutlined aria-hidden />}
                  loading={uploading > 0}
                  onClick={() => fileInput.current?.click()}
                  data-testid="image-insert"
                >
                  <span className="visually-hidden">{t('qedit.image.insert')}</span>
                </Button>
              </Tooltip>
            </>
          )}
        </Space>
      )}
      <EditorContent editor={editor} />
    </div>
  );
}
