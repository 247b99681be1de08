import { Input } from 'antd';
import { useState } from 'react';

/** A search by phone number: only digits are kept as the user types; Enter or the button searches (empty: all). */
export function PhoneSearch(props: { label: string; onSearch: (phone: string | undefined) => void; testId: string }) {
  const [phone, setPhone] = useState('');
  return (
    <Input.Search
      allowClear
      placeholder={props.label}
      aria-label={props.label}
      value={phone}
      onChange={(e) => setPhone(e.target.value.replace(/\D/g, ''))}
      onSearch={(v) => props.onSearch(v || undefined)}
      style={{ width: 200 }}
      data-testid={props.testId}
    />
  );
}
