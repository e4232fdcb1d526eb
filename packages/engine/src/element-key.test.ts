import { describe, expect, it } from 'vitest';
import { elementKey, keyWithoutSecrets } from './element-key';

describe('elementKey', () => {
  it('keeps ids, field names and test ids a person wrote', () => {
    expect(elementKey({ id: 'add-name', name: 'name', testid: 'new-item' })).toEqual({
      id: 'add-name',
      name: 'name',
      testid: 'new-item',
    });
  });

  it('drops generated ids (framework counters, UUIDs, long numbers) and answers null when nothing is left', () => {
    for (const id of [':r3:', 'ember412', 'radix-:R1:', '1b9d6bcd-bbfd-4b2d', 'row-10482', 'mui-7'])
      expect(elementKey({ id, name: '', testid: '' })).toBeNull();
  });

  it('leaves out, not masks, a value holding a secret', () => {
    const hide = (text: string) => text.replaceAll('s3cret', '{{PASSWORD}}');
    expect(keyWithoutSecrets({ id: 'field-s3cret', name: 'password' }, hide)).toEqual({ name: 'password' });
    expect(keyWithoutSecrets({ id: 'field-s3cret' }, hide)).toBeNull();
  });
});
