import { describe, expect, it } from 'vitest';
import { dialogFailureText, panelFailureText } from './PanelBoundary';

describe('panelFailureText', () => {
  it('names the panel and what it threw, in one sentence, and says the work is kept', () => {
    expect(panelFailureText('Curves', new Error('Canvas 2D is not available in this window.'))).toBe(
      'The Curves panel stopped: Canvas 2D is not available in this window. Your motion, events and project are kept (the other panels and the File menu still work).',
    );
  });
  it('says something for a throw that is no Error or has no message', () => {
    expect(panelFailureText('Timeline', 'bad state')).toMatch(/^The Timeline panel stopped: bad state\. /);
    expect(panelFailureText('Tuning', new Error(''))).toMatch(
      /^The Tuning panel stopped: an error without a message\. /,
    );
  });
});

describe('dialogFailureText', () => {
  it('says what went wrong and what Close does without repeating the heading ("The file picker stopped")', () => {
    const text = dialogFailureText(new TypeError('x.toLowerCase is not a function'), 'Close chooses no file');
    expect(text).toBe(
      'What went wrong: x.toLowerCase is not a function. Your motion, events and project are kept (Close chooses no file).',
    );
    expect(text).not.toMatch(/stopped/);
  });
});
