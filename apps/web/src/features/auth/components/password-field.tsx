import { Eye, EyeOff, Lock } from 'lucide-react';
import { useState } from 'react';
import { TextField, type TextFieldProps } from '../../../components/text-field';

/** A password input with its own show/hide toggle. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'icon' | 'trailing'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      icon={<Lock className="size-4" />}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? `Hide ${props.label.toLowerCase()}` : `Show ${props.label.toLowerCase()}`}
          aria-pressed={visible}
          className="rounded-md p-2 text-slate-500 transition hover:bg-slate-100 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {visible ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
        </button>
      }
    />
  );
}
