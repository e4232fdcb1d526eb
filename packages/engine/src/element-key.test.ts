import { describe, expect, it } from 'vitest';
import { elementKey, keyWithoutSecrets } from './element-key';

const none = { id: '', name: '', testid: '', href: '', action: '', landmark: '' };

describe('elementKey', () => {
  it('keeps ids, field names and test ids a person wrote', () => {
    expect(elementKey({ ...none, id: 'add-name', name: 'name', testid: 'new-item' })).toEqual({
      id: 'add-name',
      name: 'name',
      testid: 'new-item',
    });
  });

  it('drops generated ids (framework counters, UUIDs, long numbers) and answers null when nothing is left', () => {
    for (const id of [':r3:', 'ember412', 'radix-:R1:', '1b9d6bcd-bbfd-4b2d', 'row-10482', 'mui-7'])
      expect(elementKey({ ...none, id })).toBeNull();
  });

  it("keeps where a link leads on the same site, but not an item's address or a page number", () => {
    const link = (href: string) => elementKey({ ...none, href });
    expect(link('/')).toEqual({ href: '/' });
    expect(link('/?category=food#list')).toEqual({ href: '/?category=food#list' });
    for (const href of ['/expenses/4', '/?page=2', '/reset?token=a81f0c']) expect(link(href)).toBeNull();
  });

  it("keeps a submit button's form address, and its landmark only beside another attribute", () => {
    expect(elementKey({ ...none, action: 'post /mark-all-paid', landmark: 'main' })).toEqual({
      action: 'post /mark-all-paid',
      landmark: 'main',
    });
    expect(elementKey({ ...none, action: 'post /expenses/4/paid', landmark: 'main' })).toBeNull();
    expect(elementKey({ ...none, landmark: 'navigation' })).toBeNull();
  });

  it('leaves out, not masks, a value holding a secret', () => {
    const hide = (text: string) => text.replaceAll('s3cret', '{{PASSWORD}}');
    expect(keyWithoutSecrets({ id: 'field-s3cret', name: 'password' }, hide)).toEqual({ name: 'password' });
    expect(keyWithoutSecrets({ id: 'field-s3cret' }, hide)).toBeNull();
  });
});
