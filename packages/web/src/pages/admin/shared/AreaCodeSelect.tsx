import { AREA_CODES } from '@examhall/contract';
import { Select, type SelectProps } from 'antd';
import { useI18n } from '../../../i18n/index.js';

/** A calling-code picker, searchable by code or country name in the page's language. */
export function AreaCodeSelect(props: Omit<SelectProps<string>, 'options' | 'showSearch'>) {
  const { lang } = useI18n();
  return (
    <Select
      {...props}
      showSearch={{ optionFilterProp: 'label' }}
      options={AREA_CODES.map((a) => ({
        value: a.code,
        label: `+${a.code} ${lang === 'zh-CN' ? a.name_zh : a.name_en}`,
      }))}
    />
  );
}
