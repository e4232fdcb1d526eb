import { TextField, type TextFieldProps } from './text-field';

/** A TextField for a web address: typed as a URL (the phone keyboard with '/' and '.'), never spell-checked. */
export function UrlField(props: Omit<TextFieldProps, 'type' | 'inputMode' | 'spellCheck'>) {
  return <TextField type="url" inputMode="url" spellCheck={false} {...props} />;
}
