/** The project's messages: they are not about one motion, so they show whichever motion the tuner shows. */
import { sessionStore } from '../state/sessionStore';

export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Adds a message shown over every motion; returns its id. */
export function notify(level: 'info' | 'warning' | 'error', text: string): number {
  return sessionStore.getState().notify(level, text, 'app');
}
