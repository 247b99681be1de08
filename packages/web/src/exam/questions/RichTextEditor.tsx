import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Space, Tooltip } from 'antd';
import { useI18n, type MessageKey } from '../../i18n/index.js';

interface Props {
  /** The HTML at mount; the editor owns the text afterwards (it is keyed by question). */
  initialHtml: string;
  onChange: (html: string) => void;
  /** Called instead of pasting or dropping when the exam forbids it; null when allowed. */
  onPasteBlocked: (() => void) | null;
  label: string;
}

type Mark = 'bold' | 'italic' | 'bulletList' | 'orderedList' | 'codeBlock';

const TOOLS: { key: Mark; text: string; label: MessageKey }[] = [
  { key: 'bold', text: 'B', label: 'exam.qa.bold' },
  { key: 'italic', text: 'I', label: 'exam.qa.italic' },
  { key: 'bulletList', text: '•', label: 'exam.qa.bulletList' },
  { key: 'orderedList', text: '1.', label: 'exam.qa.orderedList' },
  { key: 'codeBlock', text: '</>', label: 'exam.qa.codeBlock' },
];

/** The Q&A answer editor (Tiptap) with its toolbar; loaded only on Q&A questions. */
export default function RichTextEditor({ initialHtml, onChange, onPasteBlocked, label }: Props) {
  const { t } = useI18n();
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false })],
    content: initialHtml,
    immediatelyRender: true,
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        class: 'rich-text-area',
        'data-testid': 'qa-editor',
      },
      handlePaste: () => {
        if (!onPasteBlocked) return false;
        onPasteBlocked();
        return true;
      },
      handleDrop: () => {
        if (!onPasteBlocked) return false;
        onPasteBlocked();
        return true;
      },
    },
  });
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

  return (
    <div className="rich-text">
      <Space role="toolbar" aria-label={t('exam.qa.toolbar')} size={4} wrap className="rich-text-toolbar">
        {TOOLS.map((tool) => (
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
        <Button size="small" disabled={!active.canUndo} onClick={() => editor.chain().focus().undo().run()}>
          {t('exam.qa.undo')}
        </Button>
        <Button size="small" disabled={!active.canRedo} onClick={() => editor.chain().focus().redo().run()}>
          {t('exam.qa.redo')}
        </Button>
      </Space>
      <EditorContent editor={editor} />
    </div>
  );
}
