import { describe, expect, it } from 'vitest';
import { protectPasswords } from './password-steps';

describe('protectPasswords', () => {
  it('knows password fields by their name, in any case and any wording', () => {
    expect(protectPasswords(['Type "s3cret!" into "Current password"']).lines).toEqual([
      'Fill "Current password" with "{{PASSWORD}}"',
    ]);
    expect(protectPasswords(['Fill "PASSWORD" with "x\\"y"']).lines).toEqual([
      'Fill "PASSWORD" with "{{PASSWORD}}"',
    ]);
  });

  it('replaces typing into the focused field right after the password field was clicked', () => {
    const { lines, replaced } = protectPasswords([
      'Click "Password"',
      'Type "hunter22"',
      'Click "Search"',
      'Type "shoes"',
    ]);
    expect(lines).toEqual(['Click "Password"', 'Type "{{PASSWORD}}"', 'Click "Search"', 'Type "shoes"']);
    expect(replaced).toBe(1);
  });

  it('drops the same password wherever else it was typed', () => {
    const { lines } = protectPasswords([
      'Fill "Password" with "hunter22"',
      'Fill "Repeat it" with "hunter22"',
      'Verify field "Password" has value "hunter22"',
    ]);
    expect(lines.join('\n')).not.toContain('hunter22');
    expect(lines[1]).toBe('Fill "Repeat it" with "{{PASSWORD}}"');
    expect(protectPasswords(['Fill "Password" with "hunter22"']).typed).toEqual(['hunter22']);
  });

  it('keeps a step that already names a secret, and other fields', () => {
    const steps = ['Fill "Password" with "{{ADMIN_PASSWORD}}"', 'Fill "Email" with "{{EMAIL}}"'];
    expect(protectPasswords(steps)).toEqual({ lines: steps, replaced: 0, typed: [] });
  });
});
