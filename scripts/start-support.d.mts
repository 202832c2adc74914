export function electronArgs(args: string[], where: { root: string; cwd: string }): string[];
export const WEB_PORT: number;
export function webArgs(
  args: string[],
  where: { root: string; cwd: string; exists: (path: string) => boolean },
): string[];
export function relayChild(child: import('node:child_process').ChildProcess): void;
export const USERNS_RESTRICTION: string;
export interface SandboxProbe {
  platform: string;
  restriction: string | null;
  binary: string;
  helper: { uid: number; mode: number } | null;
  profiles: string[];
  args: string[];
}
export function sandboxProblem(p: SandboxProbe): string | null;
export function probeSandbox(binary: string, args: string[]): SandboxProbe;
