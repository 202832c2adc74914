import { sessionStore } from '../state/sessionStore';

/** The texts of the window's messages of one level ('error', 'warning', 'info'), oldest first. */
export function messageTexts(level: string): string[] {
  return sessionStore
    .getState()
    .messages.filter((m) => m.level === level)
    .map((m) => m.text);
}
