import { Globe } from 'lucide-react';
import { TextField } from '../../../components/text-field';
import { UrlField } from '../../../components/url-field';

export interface EnvironmentValues {
  name: string;
  baseUrl: string;
}

/**
 * An environment's name and base URL, side by side: the project page's add and edit forms and each row
 * of the new-project form.
 */
export function EnvironmentFields({
  values,
  errors,
  onChange,
  baseUrlPlaceholder,
}: {
  values: EnvironmentValues;
  errors: { name?: string; baseUrl?: string } | undefined;
  onChange: (field: keyof EnvironmentValues, value: string) => void;
  baseUrlPlaceholder: string;
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <TextField
        label="Environment name"
        autoComplete="off"
        maxLength={60}
        value={values.name}
        onChange={(event) => onChange('name', event.target.value)}
        error={errors?.name}
        placeholder="staging"
      />
      <UrlField
        label="Base URL"
        autoComplete="off"
        icon={<Globe className="size-4" />}
        value={values.baseUrl}
        onChange={(event) => onChange('baseUrl', event.target.value)}
        error={errors?.baseUrl}
        placeholder={baseUrlPlaceholder}
      />
    </div>
  );
}
